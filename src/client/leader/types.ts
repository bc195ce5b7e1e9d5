/**
 * Options, lease and events of {@linkcode leaderSelector}.
 *
 * @module
 */
import type { ConnectionOptions } from "../common/connection_options.ts";
import type { ObservabilityOptions } from "../common/observability_options.ts";
import type { ShardManagerError } from "../common/errors.ts";
import type { Clock, HeartbeatTransport, PrepareHook } from "../executor/mod.ts";

/** What the leader is told about its leadership; `P` is what `prepare` returned. */
export interface LeadershipLease<P = unknown> {
  /**
   * Grows with every change of leader (a decimal string: compare with
   * `BigInt`). Send it with every write and have the downstream system refuse
   * writes carrying a lower token than it has seen, so a deposed leader
   * cannot overwrite its successor's work. A leader that resumes after a
   * suspension, never having lost the shard, keeps its token.
   */
  readonly fencingToken: string;
  /** The executor id this node campaigns with (fresh for every candidacy). */
  readonly executorId: string;
  /** The election's namespace. */
  readonly namespace: string;
  /**
   * What the selector's `prepare` hook returned when this node was warmed up
   * before the handover (its to keep); `undefined` when it became leader
   * cold (no hook, no planned handover, or the prepare failed).
   */
  readonly prepared: P | undefined;
}

/**
 * Does the leader's work. `signal` aborts the moment leadership is lost,
 * suspended (the service unreachable for `suspendAfterMs`) or the selector
 * closes: stop then, and return. Returning (or throwing) while `signal` has
 * not aborted gives leadership up.
 */
export type TakeLeadership<P = unknown> = (
  signal: AbortSignal,
  lease: LeadershipLease<P>,
) => void | Promise<void>;

/** How to create a `LeaderSelector`. Durations are in milliseconds. */
export interface LeaderSelectorOptions<P = unknown>
  extends ConnectionOptions, ObservabilityOptions {
  /**
   * The election: a namespace configured on the service as
   * `{ type: fixed, shardNum: 1 }`. Owning its shard `"0"` means leading.
   */
  readonly namespace: string;
  /** Runs while this node leads. */
  readonly takeLeadership: TakeLeadership<P>;
  /**
   * Warm handover: warms this node up before it takes over from a leader
   * that is leaving (a planned move: the leader closes, drains or is
   * rebalanced), while the old leader still leads. Load state, open
   * connections; do not act as leader. What it returns is
   * `lease.prepared` in `takeLeadership`. It is the executor's `prepare`
   * hook (`ctx.signal` aborts if the handover is called off, and the value
   * is then disposed); see docs/sdk_executor.md, "Warm handover".
   * @default {none: leadership starts cold}
   */
  readonly prepare?: PrepareHook<P>;
  /** How long `prepare` may take. @default {60000} */
  readonly prepareTimeoutMs?: number;
  /**
   * This participant's name; executor ids are `<name>-<8 random hex digits>`.
   * @default {the hostname}
   */
  readonly name?: string;
  /**
   * Rejoin the election after leadership ends (returned, failed, lost or
   * suspended). Without it the selector leaves the election after its first
   * term; {@linkcode LeaderSelector.requeue} rejoins by hand.
   * @default {false}
   */
  readonly autoRequeue?: boolean;
  /**
   * Suspend leadership (abort `signal`) once no heartbeat has succeeded for
   * this long. Keep it below ¾ of the service's `heartbeatTTL` (default 2 s),
   * the earliest the service can hand the shard to another node.
   * @default {1000}
   */
  readonly suspendAfterMs?: number;
  /** Time between heartbeats; below `suspendAfterMs`. @default {suspendAfterMs / 4} */
  readonly heartbeatIntervalMs?: number;
  /** How long `takeLeadership` may take to return once `signal` aborted. @default {10000} */
  readonly releaseTimeoutMs?: number;
  /** How long leaving the election waits for the service to move the shard. @default {5000} */
  readonly drainTimeoutMs?: number;
  /** Heartbeat metadata, shown to spectators. @default {{}} */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Events each {@linkcode LeaderSelector.events} iterator buffers. @default {64} */
  readonly eventBufferSize?: number;
  /** A heartbeat transport instead of gRPC (tests). */
  readonly transport?: HeartbeatTransport;
  /** Time source (tests). @default {systemClock} */
  readonly clock?: Clock;
}

/** Why a term of leadership ended. */
export type TermEnd = "returned" | "failed" | "lost" | "suspended" | "closed";

/**
 * Leadership changes, for logs and metrics.
 *
 * - `candidate`: joined the election with a fresh executor id.
 * - `leading`: `takeLeadership` was called.
 * - `not-leading`: it returned; `reason` says why leadership ended, `error`
 *   is what it threw (reason `"failed"`).
 * - `error`: the selector could not start (the same error `start()` rejects
 *   with; it then closes), or the namespace turned out not to be a
 *   single-shard fixed namespace (code `INVALID_NAMESPACE`; it closes).
 * - `dropped`: the iterator's consumer fell behind and lost `count` events.
 */
export type LeaderEvent =
  | { readonly type: "candidate"; readonly executorId: string }
  | { readonly type: "leading"; readonly lease: LeadershipLease }
  | { readonly type: "not-leading"; readonly reason: TermEnd; readonly error?: unknown }
  | { readonly type: "error"; readonly error: ShardManagerError }
  | { readonly type: "dropped"; readonly count: number };
