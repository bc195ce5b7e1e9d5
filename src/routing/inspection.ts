/**
 * Operator inspection, answered from the in-memory namespace state: a shard's
 * owner with its load and history, and executors with their health, load and
 * drains.
 *
 * @module
 */
import {
  ExecutorNotFoundError,
  NoOwnerError,
  ShardDrainedError,
  ShardNotFoundError,
} from "../core/errors.ts";
import type { ExecutorView, NamespaceView } from "../state/namespace_view.ts";
import { heartbeatAge, type InspectionTime, livenessOf } from "./liveness.ts";
import { notRunningShards, type RunningEvidence } from "./not_running.ts";
import { assertShardExists, type RoutedNamespace } from "./routed_namespace.ts";
import { ownerView } from "./routing.ts";
import type { ExecutorStateView, IncomingOwner, ShardInspection } from "./views.ts";

/**
 * Who owns `key`, with its reported load and when it got its owner; never
 * creates it. With `running` (exclusive namespaces) and `time`, whether the
 * owner does not run it (not_running.ts).
 */
export function inspectShard(
  runtime: RoutedNamespace,
  key: string,
  running?: { readonly evidence: RunningEvidence; readonly time: InspectionTime },
): ShardInspection {
  assertShardExists(runtime, key);
  const state = runtime.cache.state;
  if (state.isDrained(key)) throw new ShardDrainedError(state.namespace, key);
  const owner = state.ownerOf(key);
  if (owner !== undefined) {
    const report = state.executor(owner)?.reports.get(key);
    const assignedAtMs = state.assignedAtMs(key);
    const e = running === undefined ? undefined : state.executor(owner);
    const notRunning = e !== undefined && running !== undefined &&
      notRunningShards(state, e, running.time, running.evidence).includes(key);
    return {
      ...ownerView(state, owner, key),
      ...(notRunning ? { notRunning: true } : {}),
      load: report?.load ?? 0,
      ...(report ? { status: report.status } : {}),
      assignedRevision: state.fencingToken(key) ?? 0,
      ...(assignedAtMs === undefined ? {} : { assignedAtMs }),
      ...incomingOf(state, key),
    };
  }
  if (runtime.policy.keys.kind !== "fixed" && state.requestRevision(key) === undefined) {
    throw new ShardNotFoundError(state.namespace, key);
  }
  throw new NoOwnerError(state.namespace, key, "no executor is available");
}

function heartbeatAgeMs(e: ExecutorView, time: InspectionTime): number {
  const age = Number.isFinite(e.seenAtMs) || e.lastHeartbeatMs > 0
    ? heartbeatAge(e, time)
    : Infinity;
  return Math.max(0, Math.round(Math.min(age, Number.MAX_SAFE_INTEGER)));
}

/**
 * One executor's state, with health, load and drains; with `running`
 * (exclusive namespaces), the shards it owns and does not run.
 */
export function executorState(
  state: NamespaceView,
  executorId: string,
  time: InspectionTime,
  running?: RunningEvidence,
): ExecutorStateView {
  const e = state.executor(executorId);
  if (!e) throw new ExecutorNotFoundError(state.namespace, executorId);
  const shards = state.sortedShardsOf(executorId);
  const liveness = livenessOf(state, e, time);
  const stopped = notRunningShards(state, e, time, running);
  let totalLoad = 0;
  const slices = state.sliceMap();
  const pins = state.slicePins();
  const assignedShards = shards.map((shardKey) => {
    const slice = slices?.find(Number(shardKey));
    const report = e.reports.get(shardKey);
    const load = report?.load ?? 0;
    totalLoad += load;
    const assignedAtMs = state.assignedAtMs(shardKey);
    return {
      shardKey,
      assignedRevision: state.fencingToken(shardKey) ?? 0,
      load,
      ...(assignedAtMs === undefined ? {} : { assignedAtMs }),
      ...(stopped.length > 0 && stopped.includes(shardKey) ? { notRunning: true as const } : {}),
      ...(slice ? { slice } : {}),
      ...(slice && pins.has(slice.id) ? { pinned: true as const } : {}),
      ...(report?.topKeys?.length ? { topKeys: report.topKeys } : {}),
    };
  });
  return {
    executorId,
    status: e.status,
    ...(e.statusNumber === undefined ? {} : { statusNumber: e.statusNumber }),
    lastHeartbeatMs: e.lastHeartbeatMs,
    metadata: e.metadata,
    assignedShards,
    drainedBy: state.drainsOf(executorId, e.metadata).map((d) => d.id).sort(),
    heartbeatAgeMs: heartbeatAgeMs(e, time),
    alive: liveness === "alive",
    liveness,
    ...(liveness === "unknown" && time.storeLostSince
      ? { unknownSinceMs: time.storeLostSince.wallMs }
      : {}),
    totalLoad,
    ...(running === undefined ? {} : { notRunningShards: stopped.length }),
  };
}

/** Every executor's state, sorted by id (see {@linkcode executorState} for `running`). */
export function namespaceState(
  state: NamespaceView,
  time: InspectionTime,
  running?: RunningEvidence,
): ExecutorStateView[] {
  return [...state.executors()].map((e) => e.executorId).sort().map((id) =>
    executorState(state, id, time, running)
  );
}

/** `key`'s warm handover in flight, as an inspection's `incoming` (nothing when none). */
function incomingOf(state: NamespaceView, key: string): { incoming?: IncomingOwner } {
  const entry = state.preparingOf(key);
  if (entry === undefined) return {};
  const sinceMs = state.preparingAtMs(key);
  return {
    incoming: {
      executorId: entry.executor,
      ...(sinceMs === undefined ? {} : { sinceMs }),
      prepared: state.executor(entry.executor)?.reports.get(key)?.status === "PREPARED",
    },
  };
}
