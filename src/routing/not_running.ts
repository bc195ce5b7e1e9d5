/**
 * Shards owned but not running (exclusive namespaces): the owner is live, has
 * acted on the assignment, and its latest report does not show the shard
 * running. The SDK reports every shard it holds in an exclusive namespace,
 * READY while its processor runs and NOT_RUNNING while it starts, failed to
 * start or stops; a shard whose processor stopped (its lease lapsed) is not
 * reported at all. See docs/ownership.md, "Owned but not running".
 *
 * "Latest report" is the fresher of what the executor last sent to the
 * serving instance (heard, before it is recorded) and its recorded report:
 * the instance an executor heartbeats to knows within one heartbeat, also
 * while its store stalls; other instances know once the record is written.
 *
 * Only executors that said which answer they acted on (`applied_revision`,
 * sent by SDKs that implement exclusive ownership) are judged, and only on
 * shards assigned at or before that revision: a client that never sends it
 * (an independent Cadence client) never shows shards not running, and a
 * shard is not counted before its owner has even learned of it. Shards being
 * released (a handover) are stopping on purpose and are not counted.
 *
 * @module
 */
import { compareShardKeys } from "../core/shard_key_order.ts";
import type { ShardReports } from "../core/types.ts";
import type { ExecutorView, NamespaceView } from "../state/namespace_view.ts";
import { type InspectionTime, livenessOf } from "./liveness.ts";

/** What an executor last sent to the serving instance (heartbeat/heard_reports.ts). */
export interface HeardReportView {
  /** Its reports. */
  readonly reports: ShardReports;
  /** The `applied_revision` it sent (0 when none). */
  readonly appliedRevision: number;
  /** When the serving instance validated it (monotonic ms, as `InspectionTime.now`). */
  readonly heardAtMs: number;
}

/** How an exclusive namespace's running shards are judged on the serving instance. */
export interface RunningEvidence {
  /** What `executorId` last sent to the serving instance, when it heartbeats to it. */
  heard(executorId: string): HeardReportView | undefined;
  /** The namespace's heartbeat TTL: an executor heard within it is live. */
  readonly heartbeatTtlMs: number;
}

const NONE: readonly string[] = Object.freeze([]);

interface Cached {
  readonly state: NamespaceView;
  readonly executorId: string;
  readonly stamp: number;
  readonly applied: number;
  readonly shards: readonly string[];
}

/**
 * Not-running shards per reports object: reports and shard sets are replaced,
 * never changed in place, so an executor's list is recomputed only after it
 * reported anew, acted on a newer answer, or its shards changed.
 */
const cache = new WeakMap<ShardReports, Cached>();

/**
 * The shards of `e` it owns and does not run, sorted; empty when `evidence`
 * is undefined (an available namespace) or the executor is stale.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceState } from "../state/namespace_state.ts";
 * import { notRunningShards } from "./not_running.ts";
 *
 * const state = new NamespaceState("ns", { heartbeatTtlMs: 2_000 });
 * state.apply({
 *   revision: 5,
 *   events: [
 *     { type: "heartbeat", executorId: "e1", record: { status: "ACTIVE", timestampMs: 1 } },
 *     { type: "assignment", seq: 1, delta: { assign: { e1: ["0", "1"] }, unassign: [], remove: [] } },
 *   ],
 * }, 100);
 * // e1 acted on the answer of revision 5 and runs shard 0 only.
 * const reports = new Map([["0", { status: "READY", load: 0 }]] as const);
 * const heard = { reports, appliedRevision: 5, heardAtMs: 150 };
 * const evidence = { heard: () => heard, heartbeatTtlMs: 2_000 };
 * const e = state.executor("e1")!;
 * assert.deepEqual(notRunningShards(state, e, { now: 200, wallNow: 0 }, evidence), ["1"]);
 * assert.deepEqual(notRunningShards(state, e, { now: 200, wallNow: 0 }, undefined), []);
 * ```
 */
export function notRunningShards(
  state: NamespaceView,
  e: ExecutorView,
  time: InspectionTime,
  evidence: RunningEvidence | undefined,
): readonly string[] {
  if (evidence === undefined) return NONE;
  const heard = evidence.heard(e.executorId);
  const heardLive = heard !== undefined && time.now - heard.heardAtMs <= evidence.heartbeatTtlMs;
  if (!heardLive && livenessOf(state, e, time) === "stale") return NONE;
  // The fresher of what it sent here and what was recorded (the same heartbeat, usually).
  const useHeard = heard !== undefined &&
    (!Number.isFinite(e.seenAtMs) || heard.heardAtMs >= e.seenAtMs);
  const reports = useHeard ? heard.reports : e.reports;
  const applied = useHeard ? heard.appliedRevision : e.appliedRevision ?? 0;
  if (applied <= 0) return NONE;
  const stamp = state.shardSetStamp(e.executorId);
  let found = cache.get(reports);
  if (
    found?.state !== state || found.executorId !== e.executorId || found.stamp !== stamp ||
    found.applied !== applied
  ) {
    found = { state, executorId: e.executorId, stamp, applied, shards: compute() };
    cache.set(reports, found);
  }
  const shards = found.shards;
  if (shards.length === 0) return NONE;
  // Few, and only while something is wrong: releases change without changing the shard set.
  return shards.some((s) => state.releasedAt(s) !== undefined)
    ? shards.filter((s) => state.releasedAt(s) === undefined)
    : shards;

  function compute(): readonly string[] {
    let out: string[] | undefined;
    for (const shard of state.shardsOf(e.executorId)) {
      if ((state.fencingToken(shard) ?? 0) > applied) continue; // not learned of yet
      const status = reports.get(shard)?.status;
      if (status === "READY" || status === "DONE") continue;
      (out ??= []).push(shard);
    }
    return out === undefined ? NONE : out.sort(compareShardKeys);
  }
}
