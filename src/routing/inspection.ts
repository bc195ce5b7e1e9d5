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
import { assertShardExists, type RoutedNamespace } from "./routed_namespace.ts";
import { compareShardKeys, ownerView } from "./routing.ts";
import type { ExecutorStateView, ShardInspection } from "./views.ts";

/** Who owns `key`, with its reported load and when it got its owner; never creates it. */
export function inspectShard(runtime: RoutedNamespace, key: string): ShardInspection {
  assertShardExists(runtime, key);
  const state = runtime.cache.state;
  if (state.isDrained(key)) throw new ShardDrainedError(state.namespace, key);
  const owner = state.ownerOf(key);
  if (owner !== undefined) {
    const report = state.executor(owner)?.reports[key];
    const assignedAtMs = state.assignedAtMs(key);
    return {
      ...ownerView(state, owner, key),
      load: report?.load ?? 0,
      ...(report ? { status: report.status } : {}),
      assignedRevision: state.fencingToken(key) ?? 0,
      ...(assignedAtMs === undefined ? {} : { assignedAtMs }),
    };
  }
  if (runtime.policy.kind !== "fixed" && state.requestRevision(key) === undefined) {
    throw new ShardNotFoundError(state.namespace, key);
  }
  throw new NoOwnerError(state.namespace, key, "no executor is available");
}

/** Times that make an executor's health: monotonic `now` and wall-clock `wallNow`. */
export interface InspectionTime {
  /** Monotonic ms, as the state's `seenAtMs`. */
  readonly now: number;
  /** Wall-clock ms since epoch. */
  readonly wallNow: number;
}

/**
 * Milliseconds since `executor`'s heartbeat: by this instance's monotonic
 * clock when it saw one, else by the wall clock from the stored record.
 */
export function heartbeatAge(executor: ExecutorView, time: InspectionTime): number {
  return Number.isFinite(executor.seenAtMs)
    ? time.now - executor.seenAtMs
    : time.wallNow - executor.lastHeartbeatMs;
}

function heartbeatAgeMs(e: ExecutorView, time: InspectionTime): number {
  const age = Number.isFinite(e.seenAtMs) || e.lastHeartbeatMs > 0
    ? heartbeatAge(e, time)
    : Infinity;
  return Math.max(0, Math.round(Math.min(age, Number.MAX_SAFE_INTEGER)));
}

/** One executor's state, with health, load and drains. */
export function executorState(
  state: NamespaceView,
  executorId: string,
  time: InspectionTime,
): ExecutorStateView {
  const e = state.executor(executorId);
  if (!e) throw new ExecutorNotFoundError(state.namespace, executorId);
  const shards = [...state.shardsOf(executorId)].sort(compareShardKeys);
  let totalLoad = 0;
  const assignedShards = shards.map((shardKey) => {
    const load = e.reports[shardKey]?.load ?? 0;
    totalLoad += load;
    const assignedAtMs = state.assignedAtMs(shardKey);
    return {
      shardKey,
      assignedRevision: state.fencingToken(shardKey) ?? 0,
      load,
      ...(assignedAtMs === undefined ? {} : { assignedAtMs }),
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
    alive: state.isAlive(e, time.now),
    totalLoad,
  };
}

/** Every executor's state, sorted by id. */
export function namespaceState(state: NamespaceView, time: InspectionTime): ExecutorStateView[] {
  return [...state.executors()].map((e) => e.executorId).sort().map((id) =>
    executorState(state, id, time)
  );
}
