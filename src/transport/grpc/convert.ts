/**
 * Conversions between domain views and wire messages.
 *
 * @module
 */
import { keyRangeOf } from "./key_range.ts";
import type {
  ExecutorStateView,
  LeaderView,
  NamespaceDelta,
  NamespacePicture,
  OwnerEntry,
  ShardInspection,
} from "../../routing/views.ts";
import type { BlastRadiusView } from "../../service/mod.ts";
import type { ExecutorDrainView } from "../../service/mod.ts";
import type { HistoryEvent as HistoryEventView } from "../../core/history_event.ts";
import type {
  ExecutorDrain,
  ExecutorStatus,
  GetBlastRadiusResponse,
  HistoryEvent,
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
    status: executorStatusOnWire(view),
    lastHeartbeat: toTimestamp(view.lastHeartbeatMs),
    metadata: { ...view.metadata },
    assignedShards: view.assignedShards.map((s) => ({
      shardKey: s.shardKey,
      assignmentStatus: "ASSIGNMENT_STATUS_READY",
      assignedStateModRevision: String(s.assignedRevision),
      shardLoad: s.load,
      ...(s.assignedAtMs === undefined ? {} : { assignedAt: toTimestamp(s.assignedAtMs) }),
      ...(s.notRunning ? { notRunning: true } : {}),
      ...(s.slice ? { keyRange: keyRangeOf(s.slice) } : {}),
      ...(s.pinned ? { pinned: true } : {}),
      ...(s.topKeys ? { topKeys: s.topKeys.map((k) => ({ key: k.key, load: k.load })) } : {}),
    })),
    drained: view.drainedBy.length > 0,
    drainedBy: [...view.drainedBy],
    heartbeatAgeMs: String(view.heartbeatAgeMs),
    alive: view.alive,
    shardCount: String(view.assignedShards.length),
    totalLoad: view.totalLoad,
    liveness: `EXECUTOR_LIVENESS_${view.liveness.toUpperCase() as "ALIVE" | "STALE" | "UNKNOWN"}`,
    ...(view.unknownSinceMs === undefined
      ? {}
      : { unknownSince: toTimestamp(view.unknownSinceMs) }),
    ...(view.notRunningShards ? { notRunningShards: String(view.notRunningShards) } : {}),
  };
}

/**
 * An executor's status on the wire. An unknown one goes back as the number the
 * executor sent (proto3 enums are open; the generated type lists only the
 * named values), or INVALID when that number is not known (a status written by
 * a newer version of this server).
 */
function executorStatusOnWire(view: ExecutorStateView): ExecutorStatus {
  if (view.status !== "UNKNOWN") return `EXECUTOR_STATUS_${view.status}`;
  return (view.statusNumber ?? 0) as ExecutorStatus;
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
    ...(view.notRunning ? { notRunning: true } : {}),
    ...(view.incoming
      ? {
        incomingOwner: view.incoming.executorId,
        ...(view.incoming.sinceMs === undefined
          ? {}
          : { preparingSince: toTimestamp(view.incoming.sinceMs) }),
        ...(view.incoming.prepared ? { incomingPrepared: true } : {}),
      }
      : {}),
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
    ...(view.unknownSinceMs === undefined
      ? {}
      : { unknownSince: toTimestamp(view.unknownSinceMs) }),
    instanceName: view.instanceName ?? "",
    grpcAddress: view.grpcAddress ?? "",
    httpAddress: view.httpAddress ?? "",
  };
}

/** A namespace picture or delta as a watch message. */
export function toWatchResponse(
  view: NamespacePicture | NamespaceDelta,
): WatchNamespaceStateResponse {
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
      ...(view.sliceMap ? { sliceMap: view.sliceMap } : {}),
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
    ...(view.sliceMap ? { sliceMap: view.sliceMap } : {}),
  };
}

/**
 * Reads an enum field of a received message: its name, or the number of a
 * value the contract does not name (proto3 enums are open and the loader
 * passes those through as numbers). Anything else (never produced by the
 * loader) becomes a name no validator accepts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { enumValue } from "./convert.ts";
 *
 * assert.equal(enumValue("EXECUTOR_STATUS_ACTIVE"), "EXECUTOR_STATUS_ACTIVE");
 * assert.equal(enumValue(7), 7);
 * ```
 */
export function enumValue(value: unknown): string | number {
  return typeof value === "string" || typeof value === "number" ? value : String(value);
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

/** A history event on the wire. */
export function toHistoryEvent(event: HistoryEventView): HistoryEvent {
  return {
    id: event.id,
    at: toTimestamp(event.atMs),
    type: event.type,
    executorId: event.executorId ?? "",
    drainId: event.drainId ?? "",
    shardKeys: [...(event.shardKeys ?? [])],
    instanceId: event.instanceId ?? "",
    term: String(event.term ?? 0),
    moves: String(event.moves ?? 0),
    movesByReason: Object.fromEntries(
      Object.entries(event.movesByReason ?? {}).map(([k, n]) => [k, String(n)]),
    ),
    text: event.text,
    reason: event.reason ?? "",
    actor: event.actor ?? "",
    method: event.method ?? "",
    changes: [...(event.changes ?? [])],
    durationMs: String(event.durationMs ?? 0),
  };
}
