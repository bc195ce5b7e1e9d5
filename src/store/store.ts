/**
 * The main store port: everything the service persists about a namespace.
 * Only adapters under `src/store/<engine>/` know how it is laid out.
 *
 * @module
 */
import type {
  AssignmentDelta,
  ExecutorWrite,
  HeartbeatRecord,
  LeaderClaim,
  LeaderTermEnd,
  ShardReports,
} from "../core/types.ts";
import type { ExecutorDrain } from "../core/executor_drain.ts";
import type { Preparing } from "../core/assignment.ts";
import type { NamespaceDefinitions } from "./namespace_definitions.ts";
import type {
  OperatorGuard,
  OperatorWrite,
  OperatorWriteOutcome,
  RequestRetention,
} from "./operator_write.ts";
import type { HistoryStore } from "./history_store.ts";
import type { StoreFormat } from "./store_format.ts";
import type { BrakeStore } from "./brake_store.ts";

/** An executor as stored: liveness, metadata and shard reports. */
export interface StoredExecutor {
  /** Executor id. */
  readonly executorId: string;
  /** Latest liveness record, if one was written. */
  readonly heartbeat?: HeartbeatRecord;
  /** Store revision of the latest liveness record (0 when none). */
  readonly heartbeatRevision: number;
  /** Latest metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Latest shard reports. */
  readonly reports: ShardReports;
}

/** A namespace's whole persisted state, read at one store revision. */
export interface NamespaceSnapshot {
  /** The store revision the snapshot was read at. */
  readonly revision: number;
  /** Executors by id. */
  readonly executors: ReadonlyMap<string, StoredExecutor>;
  /** Sequence number of the last committed assignment change (0 when none). */
  readonly assignmentSeq: number;
  /** Shard key → executor id. */
  readonly owners: ReadonlyMap<string, string>;
  /**
   * Replicated namespaces: shard key → full owner set (primary first) of the
   * shards with more than one owner; `owners` holds their primary.
   */
  readonly ownerSets?: ReadonlyMap<string, readonly string[]>;
  /** Shard key → store revision of the commit that gave it its owner (or owner set). */
  readonly assignedRevisions: ReadonlyMap<string, number>;
  /** Store revision → commit time (ms since epoch) of assignment changes, where known. */
  readonly assignmentTimes: ReadonlyMap<number, number>;
  /** Shards whose owner was asked to stop them (exclusive handover), with that change's revision. */
  readonly releasing?: ReadonlyMap<string, number>;
  /** Warm handovers in flight: shard → the incoming owner and the revision of its prepare. */
  readonly preparing?: ReadonlyMap<string, Preparing>;
  /**
   * Executors a leader hid from the routing view (stale, holding nothing),
   * with the heartbeat revision it judged; an entry holds only while the
   * executor's heartbeat revision is still that one.
   */
  readonly hidden?: ReadonlyMap<string, number>;
  /** Key-range namespaces: the slice map (`AssignmentDelta.slices`' form); absent: none. */
  readonly slices?: string;
  /** Drained shard keys. */
  readonly drained: ReadonlySet<string>;
  /**
   * Drained shards that carry a reason (an operator's drain has none; the
   * leader's quarantine of a poison shard has `quarantined`).
   */
  readonly drainReasons?: ReadonlyMap<string, string>;
  /** Executor drains by id. */
  readonly executorDrains: ReadonlyMap<string, ExecutorDrain>;
  /** Ephemeral shard keys asked for and not yet assigned, with their store revision. */
  readonly requested: ReadonlyMap<string, number>;
  /** The current leader's claim, if any, with its store revision. */
  readonly leader?: { readonly claim: LeaderClaim; readonly revision: number };
}

/** One change to a namespace, decoded from the store's change feed. */
export type NamespaceEvent =
  | { readonly type: "heartbeat"; readonly executorId: string; readonly record: HeartbeatRecord }
  | {
    readonly type: "metadata";
    readonly executorId: string;
    readonly metadata: Readonly<Record<string, string>>;
  }
  | {
    readonly type: "reports";
    readonly executorId: string;
    readonly reports: ShardReports;
  }
  | { readonly type: "executor_removed"; readonly executorId: string }
  | { readonly type: "assignment"; readonly seq: number; readonly delta: AssignmentDelta }
  /** A shard drained (with its reason, if any) or undrained. */
  | {
    readonly type: "drained";
    readonly shardKey: string;
    readonly drained: boolean;
    readonly reason?: string;
  }
  /** An executor drain was made (`drain` set) or removed. */
  | { readonly type: "executor_drain"; readonly id: string; readonly drain?: ExecutorDrain }
  | { readonly type: "requested"; readonly shardKey: string; readonly requested: boolean }
  | { readonly type: "leader"; readonly claim?: LeaderClaim }
  /** The namespace's state was reset or the feed lost history: reload a snapshot. */
  | { readonly type: "resync"; readonly reason: string };

/** Events that happened at one store revision. */
export interface NamespaceEventBatch {
  /** Store revision of the batch. */
  readonly revision: number;
  /** The decoded events, in order. */
  readonly events: readonly NamespaceEvent[];
}

/** Proof of leadership in the main store; every leader write is checked against it. */
export interface Fence {
  /** Namespace led. */
  readonly namespace: string;
  /** The claim written. */
  readonly claim: LeaderClaim;
  /** Store revision of the claim; a write succeeds only while it is unchanged. */
  readonly revision: number;
  /** The claim this one replaced (the previous term's), as `claimLeadership` found it. */
  readonly previous?: LeaderClaim;
}

/** A whole assignment, as folded into a snapshot. */
export interface AssignmentImage {
  /** Shard → executor (the primary of a shard with several owners). */
  readonly owners: ReadonlyMap<string, string>;
  /** Shard → full owner set, for shards with more than one owner. */
  readonly ownerSets?: ReadonlyMap<string, readonly string[]>;
  /** Shard → store revision of the change that gave it its owner (its fencing token). */
  readonly revisions: ReadonlyMap<string, number>;
  /** Store revision → commit time (ms since epoch), where known. */
  readonly times: ReadonlyMap<number, number>;
  /** Releasing shards → revision of the change that released them. */
  readonly releasing?: ReadonlyMap<string, number>;
  /** Hidden executors → the heartbeat revision they were hidden at. */
  readonly hidden?: ReadonlyMap<string, number>;
  /** Warm handovers in flight: shard → the incoming owner and the revision of its prepare. */
  readonly preparing?: ReadonlyMap<string, Preparing>;
  /** Key-range namespaces: the slice map (`AssignmentDelta.slices`' form); absent: none. */
  readonly slices?: string;
}

/** An item that must still be at a given revision for a conditional delete. */
export interface Versioned {
  /** Executor id or shard key. */
  readonly id: string;
  /** The revision it must still have. */
  readonly revision: number;
}

/** Most executors one `commitAssignment` may require to be unchanged. */
export const MAX_UNCHANGED_EXECUTORS = 100;

/** Throws `RangeError` when `unchanged` is longer than {@linkcode MAX_UNCHANGED_EXECUTORS}. */
export function assertUnchangedWithinLimit(unchanged: readonly Versioned[]): void {
  if (unchanged.length > MAX_UNCHANGED_EXECUTORS) {
    throw new RangeError(
      `At most ${MAX_UNCHANGED_EXECUTORS} unchanged executors, got ${unchanged.length}`,
    );
  }
}

/** Options of {@linkcode Store.watchNamespace}. */
export interface NamespaceWatchOptions {
  /**
   * Told `false` when the feed lost its connection to the store (it
   * reconnects by itself and resumes where it stopped, nothing lost) and
   * `true` once it is connected again. Until then the feed is silent, not
   * caught up: readiness must not count it as following.
   */
  readonly onConnection?: (connected: boolean) => void;
}

/** Bounds of a store that callers plan around. */
export interface StoreLimits {
  /** Most executors one `commitAssignment` may require to be unchanged. */
  readonly maxUnchangedExecutors: number;
}

/**
 * The main store port (with the namespace history, see `history_store.ts`,
 * and the mass-loss brake's record, see `brake_store.ts`).
 */
export interface Store extends HistoryStore, BrakeStore {
  /** What this store can take in one call. */
  readonly limits: StoreLimits;
  /** Namespace definitions created at run time (and the file's, seeded at start). */
  readonly definitions: NamespaceDefinitions;
  /** The store's format record (store_format.ts), read once at start. */
  readonly format: StoreFormat;
  /** Reads a namespace's whole state at one revision. */
  loadNamespace(namespace: string, signal?: AbortSignal): Promise<NamespaceSnapshot>;
  /**
   * Streams changes after `afterRevision`. The stream ends with a `resync`
   * event when history was lost; it closes when `signal` aborts.
   */
  watchNamespace(
    namespace: string,
    afterRevision: number,
    signal: AbortSignal,
    options?: NamespaceWatchOptions,
  ): ReadableStream<NamespaceEventBatch>;
  /** Writes executor state for many executors at once; returns the store revision. */
  writeExecutors(namespace: string, writes: readonly ExecutorWrite[]): Promise<number>;
  /** Records that ephemeral shards were asked for; returns the store revision. */
  requestShards(namespace: string, shardKeys: readonly string[]): Promise<number>;
  /**
   * Drains (or undrains) shards, a drain with its `reason` when given (kept
   * with the drain: `quarantined` for a poison shard); returns the store revision.
   */
  setDrained(
    namespace: string,
    shardKeys: readonly string[],
    drained: boolean,
    reason?: string,
  ): Promise<number>;
  /**
   * Drains shards with `reason` for a leader (the quarantine of a poison
   * shard), only while `fence` holds the namespace: a deposed leader's drain
   * is refused with `FencedError` and writes nothing. Returns the store revision.
   */
  drainFenced(fence: Fence, shardKeys: readonly string[], reason: string): Promise<number>;
  /** Stores an executor drain (replacing one with the same id); returns the store revision. */
  putExecutorDrain(namespace: string, drain: ExecutorDrain): Promise<number>;
  /** Removes an executor drain by id; returns the store revision. */
  deleteExecutorDrain(namespace: string, id: string): Promise<number>;
  /** Claims a namespace for a leader term; fails with `FencedError` if a newer term holds it. */
  claimLeadership(namespace: string, claim: LeaderClaim): Promise<Fence>;
  /**
   * Marks the claim of `fence` as handed over (`end`), fenced like every
   * leader write; the next leader reads it (see `LeaderClaim.ended`).
   */
  endLeadership(fence: Fence, end: LeaderTermEnd): Promise<void>;
  /**
   * Commits assignment change number `seq` (the previous one must be `seq - 1`),
   * atomically and fenced; the transaction size does not grow with the delta
   * or the number of executors. Returns the store revision of the commit.
   * With `unchanged`, the commit is also refused (`FencedError`) unless each
   * named executor's heartbeat record is still at the given revision: a shard
   * taken from an executor whose lease expired must not move if that executor
   * was heard from since (at most 100 executors).
   */
  commitAssignment(
    fence: Fence,
    seq: number,
    delta: AssignmentDelta,
    unchanged?: readonly Versioned[],
  ): Promise<number>;
  /**
   * Folds the change log up to `seq` into a snapshot of `image`, fenced; the
   * log entries it replaces are deleted. Loading afterwards gives the same
   * owners, revisions and (for revisions still held) times.
   */
  compactAssignment(fence: Fence, seq: number, image: AssignmentImage): Promise<number>;
  /**
   * The revision of each executor's heartbeat record as the store holds it
   * now (0 when it has none), read from the store rather than from a feed: a
   * leader checks with it that its followed picture is not behind before it
   * judges executors lost (leader/process/loss_check.ts). At most
   * {@linkcode MAX_UNCHANGED_EXECUTORS} ids.
   */
  heartbeatRevisions(
    namespace: string,
    executorIds: readonly string[],
  ): Promise<Map<string, number>>;
  /** Deletes executors that are still at the given heartbeat revision (fenced). */
  removeExecutors(fence: Fence, executors: readonly Versioned[]): Promise<void>;
  /** Deletes shard requests that are still at the given revision (fenced). */
  clearRequests(fence: Fence, requests: readonly Versioned[]): Promise<void>;
  /** Deletes every key of a namespace; returns how many were deleted. */
  resetNamespace(namespace: string): Promise<number>;
  /**
   * Applies an operator's write under `guard`, atomically with recording its
   * request id (see `operator_write.ts`).
   */
  applyOperatorWrite(
    namespace: string,
    write: OperatorWrite,
    guard: OperatorGuard,
  ): Promise<OperatorWriteOutcome>;
  /** Forgets applied request ids beyond `retention`; returns how many were forgotten. */
  pruneOperatorRequests(namespace: string, retention: RequestRetention): Promise<number>;
  /** Resolves when the store answers a trivial read; rejects when it cannot be reached. */
  ping(): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}
