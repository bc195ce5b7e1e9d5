/**
 * The read-only view of a namespace's picture: the questions routing,
 * inspection, the dashboard and the leader ask of it. Only
 * {@linkcode NamespaceState} (which implements it) can change the picture, and
 * only the namespace's cache applies changes to it.
 *
 * @module
 */
import type { SliceMap } from "../core/slices.ts";
import type { Preparing } from "../core/assignment.ts";
import type { ExecutorDrain } from "../core/executor_drain.ts";
import type { ExecutorStatus, LeaderClaim, ShardReports } from "../core/types.ts";
import type { CompactOwners } from "./owner_index.ts";
import type { ViewChange } from "./view_log.ts";

/** What the service knows about an executor. */
export interface ExecutorView {
  /** Executor id. */
  readonly executorId: string;
  /** Reported status. */
  readonly status: ExecutorStatus;
  /** For an `UNKNOWN` status: the enum number it sent, when known. */
  readonly statusNumber?: number;
  /** Wall-clock time of its last recorded heartbeat (ms since epoch), 0 if none. */
  readonly lastHeartbeatMs: number;
  /** Local monotonic time when this instance last saw a heartbeat recorded: liveness is judged on it. */
  readonly seenAtMs: number;
  /**
   * Local monotonic time until which it counts as alive even unheard: set
   * for an executor read from a snapshot after an outage of the service (see
   * `loadedExecutor`). Absent: liveness is `seenAtMs` and the TTL alone.
   */
  readonly graceUntilMs?: number;
  /** Store revision of the last recorded heartbeat. */
  readonly heartbeatRevision: number;
  /**
   * Local monotonic time since which it has been alive and ACTIVE without a
   * break (when it joined the eligible set), as this instance saw it; taken
   * as the load time for an executor read from a snapshot. Absent: unknown.
   */
  readonly activeSinceMs?: number;
  /** Exclusive namespaces: revision of the latest answer it had acted on when it sent that heartbeat. */
  readonly appliedRevision?: number;
  /** It understands warm handover (sent `warm_handover`): planned moves to it are prepared first. */
  readonly warmHandover?: boolean;
  /** The executor process's id for this life, from its last heartbeat (a new one: it restarted). */
  readonly incarnation?: string;
  /** Metadata, e.g. the address spectators route to. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Latest shard reports. */
  readonly reports: ShardReports;
}

/** The leader's claim as the cache last saw it, with its store revision. */
export interface LeaderRecord {
  /** The claim. */
  readonly claim: LeaderClaim;
  /** Store revision of the claim: a leader's writes are fenced on it. */
  readonly revision: number;
}

/**
 * The picture's collections, read-only, for pure planners and compaction
 * that walk them whole. Valid until the next applied change; never keep them.
 */
export interface NamespaceTables {
  /** Shard → owner (the primary of a shard with several owners). */
  readonly owners: ReadonlyMap<string, string>;
  /** Shard → full owner set, primary first, of the shards with more than one owner. */
  readonly ownerSets: ReadonlyMap<string, readonly string[]>;
  /** Owner → its shards (a shard with several owners is listed under each). */
  readonly byExecutor: ReadonlyMap<string, ReadonlySet<string>>;
  /** Shard → store revision of the change that gave it its owners: its fencing token. */
  readonly assignedRevisions: ReadonlyMap<string, number>;
  /** Store revision → commit time (ms since epoch) of changes still held by a shard. */
  readonly assignmentTimes: ReadonlyMap<number, number>;
  /** Releasing shards (exclusive handover) → revision of the change that released them. */
  readonly releasing: ReadonlyMap<string, number>;
  /** Warm handovers in flight: shard → its incoming owner and the revision of the prepare. */
  readonly preparing: ReadonlyMap<string, Preparing>;
  /** Warm handovers in flight: shard → local monotonic time this instance first saw the prepare. */
  readonly preparingSince: ReadonlyMap<string, number>;
  /** Warm handovers in flight: incoming owner → the shards it prepares. */
  readonly preparingBy: ReadonlyMap<string, ReadonlySet<string>>;
  /** Drained shards. */
  readonly drained: ReadonlySet<string>;
  /** Ephemeral shards asked for → store revision of the request. */
  readonly requested: ReadonlyMap<string, number>;
  /**
   * Executors a leader found stale and holding nothing, left out of the
   * spectators' routing view → the heartbeat revision it judged.
   */
  readonly hidden: ReadonlyMap<string, number>;
  /**
   * Shard → local monotonic time it last changed owner from one executor to
   * another, as this instance saw it (moves since the picture was loaded;
   * placements of unowned shards are not moves).
   */
  readonly movedAt: ReadonlyMap<string, number>;
  /** A fixed namespace's owners by shard number, for planners' fast paths (see CompactOwners). */
  readonly compact: CompactOwners | undefined;
  /** A key-range namespace's slice map in its stored form (`AssignmentDelta.slices`); undefined: none. */
  readonly slices: string | undefined;
}

/** The questions asked of a namespace's picture. */
export interface NamespaceView {
  /** Namespace name. */
  readonly namespace: string;
  /** Store revision applied so far. */
  readonly revision: number;
  /**
   * Store revision of the last snapshot loaded (at start or after a resync):
   * an executor whose heartbeat revision is newer was heard from since.
   */
  readonly loadedRevision: number;
  /** Last committed assignment change number. */
  readonly seq: number;
  /**
   * Grows with every applied change a rebalance pass reads: everything but the
   * heartbeat refreshes of live executors and leader claims. Equal values mean
   * a pass would see the same picture (time aside, see `livenessDeadline`).
   */
  readonly inputsVersion: number;
  /**
   * Owner changes by the leaders' reasons (placement, balance, drain, loss),
   * summed over the changes this instance applied since it started following.
   */
  readonly moveCounts: Readonly<Record<"placement" | "balance" | "drain" | "loss", number>>;
  /** The leader's claim, if any. */
  readonly leader: LeaderRecord | undefined;

  /** One executor. */
  executor(executorId: string): ExecutorView | undefined;
  /** Every known executor, in no particular order. */
  executors(): IterableIterator<ExecutorView>;
  /** Number of known executors. */
  readonly executorCount: number;
  /**
   * True when a leader found the executor stale and holding nothing: it is out
   * of the spectators' routing view (inspection still lists it) until heard from.
   */
  isHidden(executorId: string): boolean;
  /** True when the executor's last heartbeat is recent enough at monotonic time `now`. */
  isAlive(executor: ExecutorView, now: number): boolean;
  /**
   * The earliest monotonic time after `now` at which some executor's liveness
   * runs out or, for a stale one, `retentionMs` since it was last seen runs
   * out: until then time alone changes nothing a pass reads.
   */
  livenessDeadline(now: number, retentionMs: number): number;

  /** The owner (primary) of `shard`. */
  ownerOf(shard: string): string | undefined;
  /** The owners of `shard`, primary first (empty when it has none). */
  ownersOf(shard: string): readonly string[];
  /** Shards owned by `executorId` (alone or as one of several owners). */
  shardsOf(executorId: string): ReadonlySet<string>;
  /** The same shards in a new array, in `compareShardKeys` order (answers and pictures list them so). */
  sortedShardsOf(executorId: string): string[];
  /** Every owned shard with its owner (primary). */
  owned(): IterableIterator<[string, string]>;
  /** Number of owned shards. */
  readonly ownedCount: number;
  /** True when some shard has more than one owner (a replicated namespace). */
  readonly hasOwnerSets: boolean;
  /** The fencing token of `shard`'s owners: the revision of the change that gave it them. */
  fencingToken(shard: string): number | undefined;
  /** When `shard` got its current owner (ms since epoch), if known. */
  assignedAtMs(shard: string): number | undefined;
  /**
   * A number that changes whenever the shards of `executorId` or their
   * fencing tokens change, and never comes back.
   */
  shardSetStamp(executorId: string): number;
  /** The revision at which `shard`'s owner was asked to stop it (exclusive handover). */
  releasedAt(shard: string): number | undefined;
  /** `shard`'s warm handover in flight: its incoming owner and the revision of the prepare. */
  preparingOf(shard: string): Preparing | undefined;
  /** When `shard`'s prepare was committed (ms since epoch, the leader's clock), when known. */
  preparingAtMs(shard: string): number | undefined;
  /** The shards `executorId` is preparing (warm handovers to it in flight). */
  preparingShardsOf(executorId: string): ReadonlySet<string>;

  /** True when an operator drained `shard`. */
  isDrained(shard: string): boolean;
  /** Drained shards. */
  drained(): IterableIterator<string>;
  /** Number of drained shards. */
  readonly drainedCount: number;
  /** The reason `shard` was drained with (`quarantined`), if drained with one. */
  drainReasonOf(shard: string): string | undefined;
  /** Drained shards that carry a reason, with it. */
  readonly drainReasons: ReadonlyMap<string, string>;
  /** One executor drain, by id. */
  executorDrain(id: string): ExecutorDrain | undefined;
  /** Every executor drain. */
  executorDrains(): IterableIterator<ExecutorDrain>;
  /** Number of executor drains. */
  readonly executorDrainCount: number;
  /** The executor drains that apply to an executor with this id and metadata. */
  drainsOf(executorId: string, metadata: Readonly<Record<string, string>>): ExecutorDrain[];
  /** True when an operator drain applies to `executor`. */
  isExecutorDrained(executor: ExecutorView): boolean;

  /** Store revision of the request for ephemeral shard `shard`, if it was asked for and not cleared. */
  requestRevision(shard: string): number | undefined;
  /** Number of outstanding shard requests. */
  readonly requestCount: number;

  /** The changes watchers see after `revision`, oldest first, or undefined when no longer known. */
  changesSince(revision: number): readonly ViewChange[] | undefined;
  /**
   * A key-range namespace's slice map (its shard keys are the slice ids), or
   * undefined when there is none (another kind, or none committed yet).
   */
  sliceMap(): SliceMap | undefined;
  /** A key-range namespace's slices pinned by an operator (ids; empty when none). */
  slicePins(): ReadonlySet<number>;
  /** The collections themselves, read-only, for planners and compaction. */
  tables(): NamespaceTables;
}
