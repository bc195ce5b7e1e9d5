/**
 * The shapes application code sees: a shard's context, its processor, the
 * executor's events and the unreachable policy.
 *
 * @module
 */
import type { SliceInfo } from "./_key_ranges.ts";
import type { ShardManagerError } from "../common/errors.ts";
import type { StopReason } from "./errors.ts";

/**
 * What a processor gets for one shard. `signal` aborts (with a
 * {@linkcode ShardStoppedError} as its reason) the moment the SDK decides to
 * stop the shard, before `stop()` is called. `P` is what the executor's
 * `prepare` hook returns (see {@linkcode PrepareHook}).
 */
export interface ShardContext<P = unknown> {
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
   * Warm handover: what the executor's `prepare` hook returned for this
   * shard before it was handed over; from now on the processor owns it
   * (the SDK never disposes it). `undefined` when the shard arrived cold: no
   * `prepare` hook, the service assigned the shard without a handover, the
   * prepare failed or timed out, or this is a retry after a failed start.
   */
  readonly prepared: P | undefined;
  /**
   * Sets the shard's load, reported as `shard_load` in the next heartbeats
   * (0 until called). Throws a `ShardManagerError` (code `INVALID_ARGUMENT`) unless `load` is finite and >= 0.
   * Ignored once the shard is stopping.
   */
  reportLoad(load: number): void;
  /**
   * Key-range namespaces (`type: range`): the slice this shard is, as the
   * latest heartbeat answer gives it (a split shrinks it while the processor
   * runs: read it when needed, do not keep it); `undefined` in other
   * namespaces.
   */
  readonly slice: SliceInfo | undefined;
  /**
   * Key-range namespaces: whether `key` hashes into this slice as it is now.
   * A request for a key it does not contain must be refused: the key's
   * slice belongs to another executor (route it again). Always true in other
   * namespaces, whose shard keys are the application's own.
   */
  contains(key: string): boolean;
  /**
   * Key-range namespaces: adds `load` (default 1, e.g. one request) to `key`.
   * From the first call on, each slice's load is what its keys add up to per
   * second between heartbeats (instead of `reportLoad`), reported with its
   * heaviest keys, from which the service splits hot slices and gives a hot
   * key a slice of its own. Throws a `ShardManagerError` (code
   * `INVALID_ARGUMENT`) unless `load` is finite and >= 0; a key outside the
   * executor's slices is not counted. Other namespaces ignore it.
   */
  reportKeyLoad(key: string, load?: number): void;
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
export type ProcessorFactory<P = unknown> = (
  ctx: ShardContext<P>,
) => ShardProcessor | void | Promise<ShardProcessor | void>;

/** An executor of the namespace, as the service describes it. */
export interface ShardOwner {
  /** Its executor id. */
  readonly executorId: string;
  /** The metadata it last sent with its heartbeats, e.g. `{ address: "10.0.0.5:8080" }`. */
  readonly metadata: Readonly<Record<string, string>>;
}

/**
 * What a `prepare` hook gets for one shard about to move to this executor
 * (warm handover). `signal` aborts, with a {@linkcode ShardStoppedError}
 * whose reason is `"handover-cancelled"` (the service called the move off),
 * `"shutdown"` or `"unreachable"`, when the prepared shard will not be
 * served here; the value it resolved with is then disposed (see
 * {@linkcode PrepareHook}).
 */
export interface PrepareContext {
  /** The shard key. */
  readonly shardKey: string;
  /** The namespace. */
  readonly namespace: string;
  /** This executor's id. */
  readonly executorId: string;
  /**
   * The fencing token this executor will hold once the shard is handed over
   * (the processor's `ctx.fencingToken` after a warm switch). Nothing may be
   * written on the shard's behalf with it before then: the current owner
   * still serves the shard.
   */
  readonly fencingToken: string;
  /** Aborts when the handover is called off or the executor stops. */
  readonly signal: AbortSignal;
  /**
   * Key-range namespaces: the slice being prepared (its id, range and
   * generation), so that the state of the keys it covers can be loaded;
   * `undefined` in other namespaces (optional, so that a context built by
   * hand in a test needs no change).
   */
  readonly slice?: SliceInfo | undefined;
  /**
   * The executor that serves the shard now, for state transfer (ask it for
   * the shard's state at the address in its metadata): looked up when called
   * (`GetShardOwner`, over the executor's own connection), `undefined` when
   * the shard has no owner. Rejects with a `ShardManagerError` when the
   * lookup fails (code `UNIMPLEMENTED` with a transport that cannot look
   * owners up).
   */
  currentOwner(): Promise<ShardOwner | undefined>;
}

/**
 * Prepares a shard before it is handed over to this executor (warm
 * handover): load its state, warm caches, open connections, but serve
 * nothing and write nothing on its behalf. What it resolves with becomes the
 * processor's `ctx.prepared` when the shard turns ready here. A throw, a
 * rejection or `prepareTimeoutMs` passing is a failed prepare (the shard may
 * still arrive, cold). When the shard will not be served here after all, the
 * value is disposed: `[Symbol.asyncDispose]()` or `[Symbol.dispose]()` when
 * it has one.
 */
export type PrepareHook<P> = (ctx: PrepareContext) => P | Promise<P>;

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

/**
 * Why a shard was released: every {@linkcode StopReason} but
 * `"start-failed"` and `"handover-cancelled"` (which end preparations only).
 */
export type ReleaseReason = Exclude<StopReason, "start-failed" | "handover-cancelled">;

/** Why a preparation ended without its shard being handed over. */
export type PrepareCancelReason = Exclude<StopReason, "start-failed">;

/**
 * Something that happened in an executor, for logs and metrics.
 *
 * - `assigned`: a shard appeared in a heartbeat answer.
 * - `started`: its processor started.
 * - `released`: a shard is gone from this executor and its processor stopped
 *   (or its stop timed out); `reason: "quarantined"` when the service
 *   quarantined it (a poison shard: too many executors failed with it).
 * - `processor-failed`: a prepare, start or stop threw or timed out
 *   ({@linkcode ProcessorTimeoutError}); a failed start says how many in a
 *   row failed (`failedStarts`) and when it is retried (`retryInMs`).
 * - `preparing`: warm handover: the service asked this executor to prepare
 *   a shard; the `prepare` hook runs. `fencingToken` is the one it will get.
 * - `prepared`: the hook resolved (after `durationMs`); the shard is reported
 *   PREPARED until the service hands it over or calls the move off.
 * - `prepare-cancelled`: a shard that was preparing or prepared will not be
 *   served here (the service called the move off, or the executor stops);
 *   the hook's signal aborted and its value is disposed.
 * - `heartbeat-failed`: a heartbeat failed; `failures` counts them since the
 *   last success.
 * - `heartbeat-recovered`: the first success after failures.
 * - `dropped`: only in {@linkcode Executor.events} iterators: `count` events
 *   were dropped because the consumer fell behind.
 */
export type ExecutorEvent =
  | { readonly type: "assigned"; readonly shardKey: string; readonly fencingToken: string }
  | { readonly type: "started"; readonly shardKey: string; readonly fencingToken: string }
  | { readonly type: "preparing"; readonly shardKey: string; readonly fencingToken: string }
  | {
    readonly type: "prepared";
    readonly shardKey: string;
    readonly fencingToken: string;
    readonly durationMs: number;
  }
  | {
    readonly type: "prepare-cancelled";
    readonly shardKey: string;
    readonly reason: PrepareCancelReason;
  }
  | { readonly type: "released"; readonly shardKey: string; readonly reason: ReleaseReason }
  | {
    readonly type: "processor-failed";
    readonly shardKey: string;
    readonly phase: "prepare" | "start" | "stop";
    readonly error: unknown;
    /** A failed start: the consecutive failed starts of this shard here. */
    readonly failedStarts?: number;
    /** A failed start: how long until it is tried again (its backoff). */
    readonly retryInMs?: number;
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
