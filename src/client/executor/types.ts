/**
 * The shapes application code sees: a shard's context, its processor, the
 * executor's events and the unreachable policy.
 *
 * @module
 */
import type { ShardManagerError } from "../common/errors.ts";
import type { StopReason } from "./errors.ts";

/**
 * What a processor gets for one shard. `signal` aborts (with a
 * {@linkcode ShardStoppedError} as its reason) the moment the SDK decides to
 * stop the shard, before `stop()` is called.
 */
export interface ShardContext {
  /** The shard key, e.g. `"7"` (fixed namespaces) or an entity id (ephemeral ones). */
  readonly shardKey: string;
  /** The namespace. */
  readonly namespace: string;
  /** This executor's id. */
  readonly executorId: string;
  /**
   * The store revision at which this executor got the shard, as a decimal
   * string. It grows from one owner to the next: pass it to downstream
   * systems and have them reject writes carrying a lower token
   * (`BigInt(a) < BigInt(b)`).
   */
  readonly fencingToken: string;
  /** Aborts when the processor must stop. */
  readonly signal: AbortSignal;
  /**
   * Sets the shard's load, reported as `shard_load` in the next heartbeats
   * (0 until called). Throws a `ShardManagerError` (code `INVALID_ARGUMENT`) unless `load` is finite and >= 0.
   * Ignored once the shard is stopping.
   */
  reportLoad(load: number): void;
  /**
   * Reports the shard DONE from the next heartbeat on: its (ephemeral) work
   * is finished. The service then removes the shard and the SDK stops the
   * processor with reason `"unassigned"`. Fixed namespaces ignore DONE.
   */
  done(): void;
}

/**
 * A started processor. `stop()` is called once, after `ctx.signal` aborted;
 * the shard counts as stopped when it settles or `stopTimeoutMs` passes.
 */
export interface ShardProcessor {
  /** Releases the shard's resources. */
  stop?(): void | Promise<void>;
}

/**
 * Starts the processor of one shard. The shard counts as started (and is
 * reported READY) when the returned value or promise resolves; a throw, a
 * rejection or `startTimeoutMs` passing is a failed start, retried on a later
 * heartbeat with a fresh context. Returning nothing is fine for processors
 * that only watch `ctx.signal`.
 */
export type ProcessorFactory = (
  ctx: ShardContext,
) => ShardProcessor | void | Promise<ShardProcessor | void>;

/**
 * What the executor does while no heartbeat succeeds:
 *
 * - `{ mode: "keep" }` (the default): static stability. Running processors
 *   keep running; the service, once reachable, says what to stop.
 * - `{ mode: "stop", afterMs }`: stop every processor once no heartbeat has
 *   succeeded for `afterMs` (measured from when the last successful heartbeat
 *   was sent), and start them again from the first successful heartbeat's
 *   answer. Choose `afterMs` below the service's `heartbeatTTL` when two
 *   owners at once must be avoided.
 */
export type UnreachablePolicy =
  | { readonly mode: "keep" }
  | { readonly mode: "stop"; readonly afterMs: number };

/** Why a shard was released: every {@linkcode StopReason} but `"start-failed"`. */
export type ReleaseReason = Exclude<StopReason, "start-failed">;

/**
 * Something that happened in an executor, for logs and metrics.
 *
 * - `assigned`: a shard appeared in a heartbeat answer.
 * - `started`: its processor started.
 * - `released`: a shard is gone from this executor and its processor stopped
 *   (or its stop timed out).
 * - `processor-failed`: a start or stop threw or timed out
 *   ({@linkcode ProcessorTimeoutError}).
 * - `heartbeat-failed`: a heartbeat failed; `failures` counts them since the
 *   last success.
 * - `heartbeat-recovered`: the first success after failures.
 * - `dropped`: only in {@linkcode Executor.events} iterators: `count` events
 *   were dropped because the consumer fell behind.
 */
export type ExecutorEvent =
  | { readonly type: "assigned"; readonly shardKey: string; readonly fencingToken: string }
  | { readonly type: "started"; readonly shardKey: string; readonly fencingToken: string }
  | { readonly type: "released"; readonly shardKey: string; readonly reason: ReleaseReason }
  | {
    readonly type: "processor-failed";
    readonly shardKey: string;
    readonly phase: "start" | "stop";
    readonly error: unknown;
  }
  | {
    readonly type: "heartbeat-failed";
    readonly error: ShardManagerError;
    readonly failures: number;
  }
  | { readonly type: "heartbeat-recovered"; readonly failures: number }
  | { readonly type: "dropped"; readonly count: number };

/** The status an executor reports. */
export type ExecutorState = "ACTIVE" | "DRAINING" | "DRAINED";

export type { StartOptions } from "../common/connection_options.ts";
