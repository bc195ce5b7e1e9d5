/**
 * Errors of the executor SDK. Each carries the fields a caller needs to act
 * on it; none is thrown at application code except from bad options.
 *
 * @module
 */
import { ShardManagerError } from "../common/errors.ts";

/**
 * Why a shard's processor is stopped:
 *
 * - `"unassigned"`: the service took the shard away (or removed it after
 *   `done()`).
 * - `"unreachable"`: `onUnreachable: { mode: "stop" }` and no heartbeat
 *   succeeded for `afterMs`.
 * - `"shutdown"`: {@linkcode Executor.shutdown} stops what is still running.
 * - `"start-failed"`: the start threw or timed out; the shard is retried with
 *   a fresh context once its backoff has passed (`startRetryInitialMs`,
 *   doubling to `startRetryMaxMs`).
 * - `"quarantined"`: the service quarantined the shard (too many executors
 *   failed with it) and took it away: it is not retried here or anywhere
 *   until an operator undrains it.
 * - `"handover-cancelled"`: warm handover: the service called off the move
 *   of a shard this executor was preparing (only a `prepare` hook's signal
 *   aborts with it).
 */
export type StopReason =
  | "unassigned"
  | "unreachable"
  | "shutdown"
  | "start-failed"
  | "handover-cancelled"
  | "quarantined";

/**
 * The reason a {@linkcode ShardContext.signal} aborts with.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ShardStoppedError } from "./errors.ts";
 *
 * const error = new ShardStoppedError("7", "unassigned");
 * assert.equal(error.message, 'Shard "7" stopped: unassigned');
 * assert.equal(error.code, "SHARD_STOPPED");
 * ```
 */
export class ShardStoppedError extends ShardManagerError {
  /** The shard. */
  readonly shardKey: string;
  /** Why it stopped. */
  readonly reason: StopReason;

  /** Creates the error. */
  constructor(shardKey: string, reason: StopReason) {
    super(`Shard ${JSON.stringify(shardKey)} stopped: ${reason}`, { code: "SHARD_STOPPED" });
    this.shardKey = shardKey;
    this.reason = reason;
  }
}

/**
 * A processor's prepare, start or stop took longer than its timeout. The SDK
 * has moved on: a timed-out prepare is not reported PREPARED (its late value
 * is disposed), a timed-out start is retried on a later heartbeat (the late
 * processor is stopped if it ever starts), a timed-out stop counts as stopped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProcessorTimeoutError } from "./errors.ts";
 *
 * const error = new ProcessorTimeoutError("7", "start", 10_000);
 * assert.equal(error.phase, "start");
 * ```
 */
export class ProcessorTimeoutError extends ShardManagerError {
  /** The shard. */
  readonly shardKey: string;
  /** What timed out. */
  readonly phase: "prepare" | "start" | "stop";
  /** The timeout that passed, in ms. */
  readonly timeoutMs: number;

  /** Creates the error. */
  constructor(shardKey: string, phase: "prepare" | "start" | "stop", timeoutMs: number) {
    super(
      `Processor of shard ${JSON.stringify(shardKey)} did not ${phase} within ${timeoutMs} ms`,
      { code: "PROCESSOR_TIMEOUT" },
    );
    this.shardKey = shardKey;
    this.phase = phase;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A heartbeat got no answer within `heartbeatTimeoutMs`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HeartbeatTimeoutError } from "./errors.ts";
 *
 * assert.equal(new HeartbeatTimeoutError(2_000).timeoutMs, 2_000);
 * ```
 */
export class HeartbeatTimeoutError extends ShardManagerError {
  /** The timeout that passed, in ms. */
  readonly timeoutMs: number;

  /** Creates the error. */
  constructor(timeoutMs: number) {
    super(`Heartbeat got no answer within ${timeoutMs} ms`, { code: "DEADLINE_EXCEEDED" });
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A heartbeat of an exclusive namespace was answered only after the ownership
 * lease it renewed had run out; the executor ignores that answer.
 */
export class LeaseExpiredError extends ShardManagerError {
  /** The lease, in milliseconds. */
  readonly leaseMs: number;

  /** Creates the error. */
  constructor(leaseMs: number) {
    super(`Heartbeat answered after the ${leaseMs} ms ownership lease it renewed had run out`, {
      code: "LEASE_EXPIRED",
    });
    this.leaseMs = leaseMs;
  }
}
