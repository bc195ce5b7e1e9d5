/**
 * Domain types shared by every area of the service. They are independent of
 * the wire format (see `src/transport/grpc/`) and of the store (see `src/store/`).
 *
 * @module
 */

/**
 * How an executor describes itself in a heartbeat. `UNKNOWN` stands for an
 * enum value this server does not know (proto3 enums are open: a newer
 * executor may send one): such an executor gets no new shards and keeps the
 * ones it has until it is stale or reports a known status.
 */
export type ExecutorStatus = "ACTIVE" | "DRAINING" | "DRAINED" | "UNKNOWN";

/**
 * What an executor reports about one shard it holds: `READY` while it runs,
 * `DONE` when ephemeral work finished, `NOT_RUNNING` while its processor is
 * starting, failed to start or is stopping (exclusive namespaces report every
 * held shard; see docs/ownership.md, "Owned but not running"), `PREPARED` when
 * the incoming owner of a warm handover has prepared the shard and can take it
 * over at once (never serving it yet).
 */
export type ShardStatus = "READY" | "DONE" | "NOT_RUNNING" | "PREPARED";

/** Fixed namespaces have shards "0".."shardNum-1"; ephemeral ones create shards on first ask. */
export type NamespaceType = "fixed" | "ephemeral";

/** One shard's report inside a heartbeat. */
export interface ShardReport {
  /** READY while running, DONE when ephemeral work finished, NOT_RUNNING while held and not serving. */
  readonly status: ShardStatus;
  /** Load the executor measured for the shard; any non-negative number. */
  readonly load: number;
  /**
   * NOT_RUNNING only: the consecutive failed starts of the shard on this
   * executor (absent when none), counted by the poison-shard detector.
   */
  readonly failedStarts?: number;
  /**
   * Key-range namespaces: the slice's heaviest keys with their load, from
   * the executor's sketch (at most 32); absent: none reported.
   */
  readonly topKeys?: readonly KeyLoad[];
}

/** A key's load, as a key-range slice's report gives it (from a Space-Saving sketch). */
export interface KeyLoad {
  /** The key (hashed to find its point on the line). */
  readonly key: string;
  /** Its load: the sketch's guaranteed part, `count - error`. */
  readonly load: number;
}

/**
 * An executor's reports by shard key. A map, not a plain object: most keys
 * are shard numbers, which a plain object keeps as integer indices and turns
 * back into strings each time its keys are listed (~0.2 ms for 1,000 reports
 * in a process holding 1,000,000 shard keys), while a map hands back the
 * strings it holds.
 */
export type ShardReports = ReadonlyMap<string, ShardReport>;

/** The liveness part of an executor's record, written on (coalesced) heartbeats. */
export interface HeartbeatRecord {
  /** Status the executor reported. */
  readonly status: ExecutorStatus;
  /** For an `UNKNOWN` status: the enum number the executor sent, when known. */
  readonly statusNumber?: number;
  /** Wall-clock time (ms since epoch) of the service instance that accepted the heartbeat. */
  readonly timestampMs: number;
  /**
   * Exclusive namespaces: revision of the latest answer the executor had acted
   * on when it sent the heartbeat (absent when 0).
   */
  readonly appliedRevision?: number;
  /**
   * The executor sent `warm_handover`: it understands PREPARING assignments
   * and PREPARED reports, so a planned move to it is prepared first.
   */
  readonly warmHandover?: true;
  /** The executor process's id for this life: a new one means it restarted. */
  readonly incarnation?: string;
}

/** One write of executor state produced by heartbeat ingestion; absent parts are unchanged. */
export interface ExecutorWrite {
  /** Executor that heartbeated. */
  readonly executorId: string;
  /** New liveness record, always written. */
  readonly heartbeat: HeartbeatRecord;
  /** Replacement metadata, only when it changed. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Replacement shard reports, only when they changed. */
  readonly reports?: ShardReports;
}

/**
 * A change of assignment committed by a namespace leader: executors gaining
 * shards, shards losing their owner, and (ephemeral) shards deleted for good.
 */
export interface AssignmentDelta {
  /** Shards given to each executor (taken from any previous owner). */
  readonly assign: Readonly<Record<string, readonly string[]>>;
  /** Shards that no longer have an owner (drained, or no executor available). */
  readonly unassign: readonly string[];
  /** Ephemeral shards that are finished and forgotten. */
  readonly remove: readonly string[];
  /**
   * Shards whose owner (unchanged) is asked to stop them before they move: the
   * first step of a handover in an exclusive namespace.
   */
  readonly release?: readonly string[];
  /**
   * Warm handover: shards each executor is asked to prepare (the incoming
   * owner), while their owner (unchanged) keeps serving them. A later change
   * that assigns the shard to that executor is the switch.
   */
  readonly prepare?: Readonly<Record<string, readonly string[]>>;
  /** Warm handover: shards whose prepare is cancelled (they stay with their owner). */
  readonly unprepare?: readonly string[];
  /**
   * Fencing tokens of shards in `assign` that are not the change's own
   * revision: a warm switch keeps the token its prepare announced (the
   * revision of the change that asked for the prepare).
   */
  readonly tokens?: Readonly<Record<string, number>>;
  /**
   * Replicated namespaces: the full owner set (primary first, two or more
   * owners) of every shard in `assign` that has more than one owner. Such a
   * shard is listed in `assign` under its primary, so readers that ignore this
   * field see one owner; a shard in `assign` without an entry here has exactly
   * the one owner it is listed under.
   */
  readonly sets?: Readonly<Record<string, readonly string[]>>;
  /**
   * Executors the leader found stale and holding nothing (once this change is
   * applied), each with the revision of the heartbeat record it judged: they
   * leave the spectators' routing view until that record changes (the
   * executor is heard from again) or they are forgotten.
   */
  readonly hide?: Readonly<Record<string, number>>;
  /**
   * Key-range namespaces: the whole slice map once this change is applied
   * (`core/slice_map_codec.ts` `sliceMapText`), replacing the one before; the
   * shard keys of such a namespace are its slice ids. Absent: unchanged.
   */
  readonly slices?: string;
  /** When the leader committed it (ms since epoch, the leader's clock), when known. */
  readonly atMs?: number;
  /**
   * Owner changes it makes by the leader's reason (see `sm_shard_moves_total`),
   * when the leader counted them; readers sum them up for operators.
   */
  readonly moves?: Readonly<Record<"placement" | "balance" | "drain" | "loss", number>>;
}

/** The leader's claim on a namespace in the main store: its fencing token. */
export interface LeaderClaim {
  /** Grows with every change of leader; a write with an older term is refused. */
  readonly term: number;
  /** Id of the service instance that leads. */
  readonly instanceId: string;
  /** When the term began (ms since epoch, the leader's clock). */
  readonly sinceMs: number;
  /** Stable name of the leading instance (`server.instanceName`), when it advertised one. */
  readonly instanceName?: string;
  /** gRPC address the leading instance advertises, `host:port`. */
  readonly grpcAddress?: string;
  /** HTTP address the leading instance advertises, `host:port`. */
  readonly httpAddress?: string;
  /**
   * Set when the leader handed the namespace over on purpose (its period was
   * over, it shut down, the definition changed): the next leader then knows
   * the term did not end by a crash or a lost lease.
   */
  readonly ended?: LeaderTermEnd;
}

/** How a leader ended its term on purpose (see {@linkcode LeaderClaim.ended}). */
export interface LeaderTermEnd {
  /** When (ms since epoch, the leader's clock). */
  readonly atMs: number;
  /** Why, for people: "leader period over", "instance shutting down", ... */
  readonly reason: string;
  /** True for the routine rotation every `leaderPeriod`, which the history only counts. */
  readonly routine: boolean;
}

/** Where an instance can be reached, as it advertises itself in its leader claims. */
export interface AdvertisedInstance {
  /** Stable name (`server.instanceName`). */
  readonly instanceName: string;
  /** gRPC address, `host:port`. */
  readonly grpcAddress: string;
  /** HTTP address, `host:port`. */
  readonly httpAddress: string;
}

/** True when a delta changes nothing. */
export function isEmptyDelta(delta: AssignmentDelta): boolean {
  return delta.unassign.length === 0 && delta.remove.length === 0 &&
    (delta.release?.length ?? 0) === 0 && (delta.unprepare?.length ?? 0) === 0 &&
    Object.values(delta.prepare ?? {}).every((keys) => keys.length === 0) &&
    Object.keys(delta.hide ?? {}).length === 0 && delta.slices === undefined &&
    Object.values(delta.assign).every((keys) => keys.length === 0);
}
