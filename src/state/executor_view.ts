/**
 * What the service knows about an executor, and how a picture of the
 * namespace makes one: from a store snapshot, or from nothing when its first
 * record arrives.
 *
 * @module
 */
import { NO_REPORTS } from "../core/shared_reports.ts";
import type { ExecutorStatus, ShardReports } from "../core/types.ts";
import type { StoredExecutor } from "../store/store.ts";
import type { ExecutorView } from "./namespace_view.ts";

/** An executor as the state keeps it: the view's fields, written only by the state. */
export interface ExecutorRecord extends ExecutorView {
  status: ExecutorStatus;
  statusNumber?: number;
  lastHeartbeatMs: number;
  seenAtMs: number;
  graceUntilMs?: number;
  heartbeatRevision: number;
  activeSinceMs?: number;
  appliedRevision?: number;
  warmHandover?: boolean;
  incarnation?: string;
  metadata: Readonly<Record<string, string>>;
  reports: ShardReports;
}

/**
 * An executor first heard of in a change (no heartbeat seen yet: never alive
 * until one is).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { newExecutor } from "./executor_view.ts";
 *
 * assert.equal(newExecutor("e1").seenAtMs, -Infinity);
 * ```
 */
export function newExecutor(executorId: string): ExecutorRecord {
  return {
    executorId,
    status: "ACTIVE",
    lastHeartbeatMs: 0,
    seenAtMs: -Infinity,
    heartbeatRevision: 0,
    appliedRevision: 0,
    metadata: {},
    reports: NO_REPORTS,
  };
}

/**
 * An executor read from a snapshot at monotonic `now`: taken as seen then (a
 * new reader cannot know better) unless its last heartbeat is far older than
 * the TTL by the wall clock (`wallNow`), so that a reader that loads a
 * snapshot never cuts an ownership lease short.
 *
 * `latestHeartbeatMs` is the newest heartbeat of the whole namespace (wall
 * clock): the service has recorded nothing since, so it was down (or cut off)
 * for `wallNow` minus that. An executor alive when that silence began keeps
 * its grace for the silence's length again after the TTL: a gRPC client that
 * found the service gone retries on a backoff that grows with the outage (1 s,
 * then 1.6 times longer each try, by default), so its first heartbeat can come
 * seconds after the service listens again. Without this, a restart that took
 * about a TTL would find every executor stale and move every shard.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadedExecutor } from "./executor_view.ts";
 *
 * const stored = {
 *   executorId: "e1",
 *   heartbeat: { status: "ACTIVE", timestampMs: 1_000 },
 *   heartbeatRevision: 3,
 *   metadata: {},
 *   reports: new Map(),
 * } as const;
 * const liveness = { heartbeatTtlMs: 2_000 };
 * assert.equal(loadedExecutor(stored, 50, 2_000, liveness).seenAtMs, 50);
 * assert.equal(loadedExecutor(stored, 50, 99_000, liveness).seenAtMs, -Infinity);
 * // Nothing heard for 1.5 s when loaded: one TTL and those 1.5 s.
 * assert.equal(loadedExecutor(stored, 50, 2_500, liveness, 1_000).graceUntilMs, 3_550);
 * ```
 */
export function loadedExecutor(
  e: StoredExecutor,
  now: number,
  wallNow: number,
  liveness: { readonly heartbeatTtlMs: number; readonly ownershipLeaseMs?: number },
  latestHeartbeatMs = wallNow,
): ExecutorRecord {
  const lastHeartbeatMs = e.heartbeat?.timestampMs ?? 0;
  const { heartbeatTtlMs, ownershipLeaseMs = 0 } = liveness;
  const ancient = wallNow - lastHeartbeatMs > 10 * heartbeatTtlMs + 2 * ownershipLeaseMs;
  const silenceMs = Math.min(wallNow - latestHeartbeatMs, 10 * heartbeatTtlMs);
  const aliveWhenSilent = lastHeartbeatMs >= latestHeartbeatMs - heartbeatTtlMs;
  const graced = !ancient && silenceMs > 0 && aliveWhenSilent;
  return {
    executorId: e.executorId,
    status: e.heartbeat?.status ?? "DRAINED",
    ...(e.heartbeat?.statusNumber === undefined ? {} : { statusNumber: e.heartbeat.statusNumber }),
    lastHeartbeatMs,
    seenAtMs: ancient ? -Infinity : now,
    ...(graced ? { graceUntilMs: now + heartbeatTtlMs + silenceMs } : {}),
    heartbeatRevision: e.heartbeatRevision,
    ...(ancient || e.heartbeat?.status !== "ACTIVE" ? {} : { activeSinceMs: now }),
    appliedRevision: e.heartbeat?.appliedRevision ?? 0,
    ...(e.heartbeat?.warmHandover ? { warmHandover: true } : {}),
    ...(e.heartbeat?.incarnation ? { incarnation: e.heartbeat.incarnation } : {}),
    metadata: e.metadata,
    reports: e.reports,
  };
}
