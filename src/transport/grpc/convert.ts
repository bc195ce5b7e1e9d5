/**
 * Conversions between domain views and wire messages.
 *
 * @module
 */
import type {
  ExecutorStateView,
  LeaderView,
  NamespaceDelta,
  NamespaceView,
  OwnerEntry,
  ShardInspection,
} from "../../routing/views.ts";
import type { BlastRadiusView } from "../../service/cell_operations.ts";
import type { ExecutorDrainView } from "../../service/executor_drains.ts";
import type {
  ExecutorDrain,
  GetBlastRadiusResponse,
  InspectShardResponse,
  NamespaceExecutorState,
  NamespaceLeader,
  ShardOwner,
  Timestamp,
  WatchNamespaceStateResponse,
} from "../../wire/proto.ts";

/** Milliseconds since the epoch as a protobuf Timestamp. */
export function toTimestamp(ms: number): Timestamp {
  const seconds = Math.floor(ms / 1000);
  return { seconds: String(seconds), nanos: Math.round((ms - seconds * 1000) * 1e6) };
}

/** An executor's state on the wire. */
export function toExecutorState(view: ExecutorStateView): NamespaceExecutorState {
  return {
    executorId: view.executorId,
    status: `EXECUTOR_STATUS_${view.status}`,
    lastHeartbeat: toTimestamp(view.lastHeartbeatMs),
    metadata: { ...view.metadata },
    assignedShards: view.assignedShards.map((s) => ({
      shardKey: s.shardKey,
      assignmentStatus: "ASSIGNMENT_STATUS_READY",
      assignedStateModRevision: String(s.assignedRevision),
      shardLoad: s.load,
      ...(s.assignedAtMs === undefined ? {} : { assignedAt: toTimestamp(s.assignedAtMs) }),
    })),
    drained: view.drainedBy.length > 0,
    drainedBy: [...view.drainedBy],
    heartbeatAgeMs: String(view.heartbeatAgeMs),
    alive: view.alive,
    shardCount: String(view.assignedShards.length),
    totalLoad: view.totalLoad,
  };
}

/** A shard inspection on the wire. */
export function toInspectShardResponse(view: ShardInspection): InspectShardResponse {
  return {
    owner: view.owner,
    namespace: view.namespace,
    metadata: { ...view.metadata },
    shardLoad: view.load,
    shardStatus: view.status ? `SHARD_STATUS_${view.status}` : "SHARD_STATUS_INVALID",
    assignedRevision: String(view.assignedRevision),
    ...(view.assignedAtMs === undefined ? {} : { assignedAt: toTimestamp(view.assignedAtMs) }),
    owners: toShardOwners(view.owners),
  };
}

/** A shard's owners on the wire, primary first. */
export function toShardOwners(owners: readonly OwnerEntry[]): ShardOwner[] {
  return owners.map((o) => ({ executorId: o.executorId, metadata: { ...o.metadata } }));
}

/** An executor drain on the wire. */
export function toExecutorDrain(view: ExecutorDrainView): ExecutorDrain {
  const { drain } = view;
  return {
    id: drain.id,
    ...(drain.executorId === undefined ? { selector: { ...drain.selector } } : {
      executorId: drain.executorId,
    }),
    reason: drain.reason,
    createdAt: toTimestamp(drain.createdAtMs),
    matchedExecutorIds: [...view.matched],
  };
}

/** A namespace's leader on the wire. */
export function toNamespaceLeader(view: LeaderView): NamespaceLeader {
  return {
    namespace: view.namespace,
    instanceId: view.instanceId ?? "",
    term: String(view.term ?? 0),
    ...(view.sinceMs === undefined ? {} : { since: toTimestamp(view.sinceMs) }),
  };
}

/** A namespace picture or delta as a watch message. */
export function toWatchResponse(view: NamespaceView | NamespaceDelta): WatchNamespaceStateResponse {
  if (view.kind === "delta") {
    return {
      executors: view.executors.map((e) => ({
        executorId: e.executorId,
        metadata: { ...e.metadata },
        shards: [],
      })),
      revision: String(view.revision),
      isDelta: true,
      ownerChanges: view.owners.map(({ shard, owner, owners }) => ({
        shardKey: shard,
        executorId: owner ?? "",
        ...(owners && owners.length > 1 ? { executorIds: [...owners] } : {}),
      })),
      removedExecutors: [...view.removedExecutors],
    };
  }
  return {
    executors: view.executors.map((e) => ({
      executorId: e.executorId,
      metadata: { ...e.metadata },
      shards: e.shards.map((shardKey) => ({ shardKey })),
      ...(e.replicaShards?.length
        ? { replicaShards: e.replicaShards.map(({ shard, rank }) => ({ shardKey: shard, rank })) }
        : {}),
    })),
    revision: String(view.revision ?? 0),
  };
}

/** Reads an enum value that arrives as a name (or, if unknown, a number). */
export function enumName(value: unknown): string {
  return typeof value === "string" ? value : `UNKNOWN_${String(value)}`;
}

/** A blast-radius report on the wire (counts as int64 strings). */
export function toBlastRadiusResponse(view: BlastRadiusView): GetBlastRadiusResponse {
  return {
    namespace: view.namespace,
    shards: String(view.shards),
    executors: String(view.executors),
    unownedShards: String(view.unowned),
    fewestOwners: view.fewestOwners,
    singleMaxLost: view.single.maxLost,
    singleMeanLost: view.single.meanLost,
    singleMaxDegraded: view.single.maxDegraded,
    singleMeanDegraded: view.single.meanDegraded,
    worstExecutorId: view.single.worstExecutor ?? "",
    pairMaxLost: view.pair.maxLost,
    pairMeanLost: view.pair.meanLost,
    worstPairExecutorIds: view.pair.worstPair ? [...view.pair.worstPair] : [],
    worstLost: view.worstLost,
    ...(view.overlap
      ? {
        maxOverlap: view.overlap.maxOverlap,
        shardsOverBound: String(view.overlap.shardsOverBound),
        ownerSetCombinations: view.overlap.combinations.toString(),
      }
      : {}),
  };
}
