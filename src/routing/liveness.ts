/**
 * Whether an executor is alive, as inspection, statistics and the
 * not-running check judge it: the times that make its health
 * ({@linkcode InspectionTime}), its {@linkcode Liveness} and its heartbeat's
 * age.
 *
 * @module
 */
import type { ExecutorView, NamespaceView } from "../state/namespace_view.ts";

/** Times that make an executor's health: monotonic `now` and wall-clock `wallNow`. */
export interface InspectionTime {
  /** Monotonic ms, as the state's `seenAtMs`. */
  readonly now: number;
  /** Wall-clock ms since epoch. */
  readonly wallNow: number;
  /**
   * Set while the instance cannot read its store: its last good read, on both
   * clocks. Liveness is then unknown for executors alive at that read.
   */
  readonly storeLostSince?: { readonly now: number; readonly wallMs: number };
  /**
   * The latest monotonic time the store vouches for (its last answer, at most
   * `now`): liveness is judged then, so a stall too young to count as lost
   * never shows an executor stale. @default {now}
   */
  readonly vouchedNow?: number;
}

/** Whether an executor is alive: `unknown` while the store cannot be read. */
export type Liveness = "alive" | "stale" | "unknown";

/**
 * An executor's liveness at `time`. While the store cannot be read no
 * heartbeat can be recorded, so an executor that was alive at the last good
 * read is unknown, not stale; it is stale only on evidence (its heartbeats
 * had stopped before then).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { livenessOf } from "./liveness.ts";
 * import { NamespaceState } from "../state/namespace_state.ts";
 *
 * const state = new NamespaceState("ns", { heartbeatTtlMs: 2_000 });
 * state.apply({
 *   revision: 1,
 *   events: [{ type: "heartbeat", executorId: "e1", record: { status: "ACTIVE", timestampMs: 1 } }],
 * }, 100);
 * const e = state.executor("e1")!;
 * assert.equal(livenessOf(state, e, { now: 1_000, wallNow: 0 }), "alive");
 * assert.equal(livenessOf(state, e, { now: 5_000, wallNow: 0 }), "stale");
 * const lost = { storeLostSince: { now: 1_000, wallMs: 0 } };
 * assert.equal(livenessOf(state, e, { now: 5_000, wallNow: 0, ...lost }), "unknown");
 * ```
 */
export function livenessOf(state: NamespaceView, e: ExecutorView, time: InspectionTime): Liveness {
  const lost = time.storeLostSince;
  if (lost === undefined) return state.isAlive(e, time.vouchedNow ?? time.now) ? "alive" : "stale";
  return state.isAlive(e, lost.now) ? "unknown" : "stale";
}

/**
 * Milliseconds since `executor`'s heartbeat: by this instance's monotonic
 * clock when it saw one, else by the wall clock from the stored record.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { heartbeatAge } from "./liveness.ts";
 * import { NamespaceState } from "../state/namespace_state.ts";
 *
 * const state = new NamespaceState("ns", { heartbeatTtlMs: 2_000 });
 * state.apply({
 *   revision: 1,
 *   events: [{ type: "heartbeat", executorId: "e1", record: { status: "ACTIVE", timestampMs: 1 } }],
 * }, 100);
 * const e = state.executor("e1")!;
 * assert.equal(heartbeatAge(e, { now: 1_000, wallNow: 0 }), 900);
 * ```
 */
export function heartbeatAge(executor: ExecutorView, time: InspectionTime): number {
  return Number.isFinite(executor.seenAtMs)
    ? time.now - executor.seenAtMs
    : time.wallNow - executor.lastHeartbeatMs;
}
