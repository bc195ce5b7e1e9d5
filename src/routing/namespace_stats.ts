/**
 * Aggregates of a namespace for metrics and dashboards: executors by state,
 * owned and drained shards, the oldest heartbeat, and executor loads.
 *
 * @module
 */
import type { ExecutorView, NamespaceView } from "../state/namespace_view.ts";
import { heartbeatAge, type InspectionTime, livenessOf } from "./liveness.ts";
import { notRunningShards, type RunningEvidence } from "./not_running.ts";

/**
 * How executors are counted: each falls in exactly one state. `unknown_status`:
 * alive, with a status this server does not know.
 */
export type ExecutorHealth =
  | "active"
  | "draining"
  | "drained"
  | "unknown_status"
  | "operator_drained"
  | "stale"
  | "unknown";

const HEALTH_OF_STATUS = {
  DRAINING: "draining",
  DRAINED: "drained",
  UNKNOWN: "unknown_status",
} as const satisfies Record<Exclude<ExecutorView["status"], "ACTIVE">, ExecutorHealth>;

/** A namespace summed up. */
export interface NamespaceStats {
  /** Executors per state. */
  readonly executors: Readonly<Record<ExecutorHealth, number>>;
  /** Shards with an owner. */
  readonly ownedShards: number;
  /**
   * Shards of the namespace: `shardNum` for a fixed namespace, else the shards
   * known (owned, drained, or asked for and not yet assigned).
   */
  readonly totalShards: number;
  /** Shards with no owner that no operator drained: what "no owner" alerts count. */
  readonly unownedShards: number;
  /** Shards drained by an operator. */
  readonly drainedShards: number;
  /** Of the drained shards, those the leader quarantined (poison shards). */
  readonly quarantinedShards: number;
  /**
   * Exclusive namespaces: shards whose owner is live and does not run them
   * (routing/not_running.ts); 0 in available namespaces.
   */
  readonly notRunningShards: number;
  /** Executor drains in force. */
  readonly executorDrains: number;
  /** Oldest heartbeat among live executors and executors that own shards, in ms (0 if none). */
  readonly maxHeartbeatAgeMs: number;
  /** Highest total load of a live executor (0 if none). */
  readonly maxLoad: number;
  /** Mean total load of live executors (0 if none). */
  readonly meanLoad: number;
}

/** Options of {@linkcode namespaceStats}. */
export interface NamespaceStatsOptions {
  /** A fixed namespace's shard count; without it the shards known to `state` are counted. */
  readonly shardNum?: number;
  /** Exclusive namespaces: how running shards are judged. @default {none counted} */
  readonly running?: RunningEvidence;
}

/** Sums up `state` at `time`. */
export function namespaceStats(
  state: NamespaceView,
  time: InspectionTime,
  options: NamespaceStatsOptions = {},
): NamespaceStats {
  const executors: Record<ExecutorHealth, number> = {
    active: 0,
    draining: 0,
    drained: 0,
    unknown_status: 0,
    operator_drained: 0,
    stale: 0,
    unknown: 0,
  };
  let maxAge = 0, maxLoad = 0, sumLoad = 0, live = 0, notRunning = 0;
  for (const e of state.executors()) {
    const liveness = livenessOf(state, e, time);
    const alive = liveness === "alive";
    const owns = state.shardsOf(e.executorId);
    const health: ExecutorHealth = liveness !== "alive"
      ? liveness
      : e.status !== "ACTIVE"
      ? HEALTH_OF_STATUS[e.status]
      : state.isExecutorDrained(e)
      ? "operator_drained"
      : "active";
    executors[health]++;
    if (alive || owns.size > 0) {
      maxAge = Math.max(maxAge, heartbeatAge(e, time));
    }
    if (options.running) notRunning += notRunningShards(state, e, time, options.running).length;
    if (liveness === "stale") continue;
    const load = totalLoad(state, e.executorId, e.reports);
    live++;
    sumLoad += load;
    maxLoad = Math.max(maxLoad, load);
  }
  // Drained shards are few: counting those without an owner is cheap at any shard count.
  let drainedUnowned = 0;
  for (const shard of state.drained()) if (state.ownersOf(shard).length === 0) drainedUnowned++;
  const known = state.ownedCount + drainedUnowned;
  const totalShards = options.shardNum ?? known + state.requestCount;
  return {
    executors,
    ownedShards: state.ownedCount,
    totalShards,
    unownedShards: Math.max(0, totalShards - known),
    drainedShards: state.drainedCount,
    quarantinedShards: quarantinedCount(state.drainReasons),
    notRunningShards: notRunning,
    executorDrains: state.executorDrainCount,
    maxHeartbeatAgeMs: Math.round(maxAge),
    maxLoad,
    meanLoad: live === 0 ? 0 : sumLoad / live,
  };
}

/**
 * Loads summed per reports object and shard set: both are replaced, never
 * changed in place, so an executor's sum is recomputed only after it reported
 * anew or its shards changed (a scrape at 1,000,000 shards walked them all).
 */
const loadSums = new WeakMap<
  ExecutorView["reports"],
  { executorId: string; stamp: number; load: number }
>();

function totalLoad(
  state: NamespaceView,
  executorId: string,
  reports: ExecutorView["reports"],
): number {
  const stamp = state.shardSetStamp(executorId);
  const cached = loadSums.get(reports);
  if (cached?.stamp === stamp && cached.executorId === executorId) return cached.load;
  let load = 0;
  for (const shard of state.shardsOf(executorId)) load += reports.get(shard)?.load ?? 0;
  loadSums.set(reports, { executorId, stamp, load });
  return load;
}

/** Drained shards whose reason is `quarantined`. */
function quarantinedCount(reasons: ReadonlyMap<string, string>): number {
  let n = 0;
  for (const reason of reasons.values()) if (reason === "quarantined") n++;
  return n;
}
