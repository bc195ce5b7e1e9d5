/**
 * Conversions between domain views and wire messages.
 *
 * @module
 */
import type { ExecutorStateView, NamespaceView } from "../../routing/views.ts";
import type {
  NamespaceExecutorState,
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
    })),
  };
}

/** A namespace picture as a watch message. */
export function toWatchResponse(view: NamespaceView): WatchNamespaceStateResponse {
  return {
    executors: view.executors.map((e) => ({
      executorId: e.executorId,
      metadata: { ...e.metadata },
      shards: e.shards.map((shardKey) => ({ shardKey })),
    })),
  };
}

/** Reads an enum value that arrives as a name (or, if unknown, a number). */
export function enumName(value: unknown): string {
  return typeof value === "string" ? value : `UNKNOWN_${String(value)}`;
}
