/**
 * Store outages in the namespace history. Nothing can be written while the
 * store is silent, so an outage is told once it answers again, as two events
 * dated when they happened: `store_unreachable` at its last answer before the
 * silence, and `store_recovered` at its first answer after. Only the
 * instance whose claim the namespace's cache holds (its leader, as far as it
 * knows) tells it, so that a fleet of instances does not tell it once each.
 *
 * @module
 */
import type { Clock } from "../core/clock.ts";
import type { StoreEvidence } from "../core/store_evidence.ts";
import type { HistoryLog } from "./history_log.ts";

/** What {@linkcode recordStoreOutages} needs. */
export interface OutageHistoryOptions {
  /** Where to record. */
  readonly history: Pick<HistoryLog, "record">;
  /** Time source (the evidence's monotonic times are turned into wall times). */
  readonly clock: Clock;
  /** This instance's name, told in the events. */
  readonly instance: () => string;
  /** The namespaces this instance leads, or led when the store went silent. */
  readonly namespaces: () => Iterable<string>;
}

/** `6.1 s`, `2 min 5 s`. */
function seconds(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/**
 * Records every outage `evidence` sees end; returns the unsubscribe.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fakeClock } from "../core/fake_clock.ts";
 * import { StoreEvidence } from "../core/store_evidence.ts";
 * import { recordStoreOutages } from "./outage_history.ts";
 *
 * const { clock, tick } = fakeClock(1_000_000);
 * const evidence = new StoreEvidence({ silenceMs: 1_000, clock });
 * const events: { type: string; atMs?: number }[] = [];
 * const history = { record: (_ns: string, e: { type: string }) => (events.push(e), Promise.resolve()) };
 * recordStoreOutages(evidence, { history, clock, instance: () => "a", namespaces: () => ["ns"] });
 * evidence.heard();
 * await tick(6_000);
 * evidence.heard();
 * assert.deepEqual(events.map((e) => [e.type, e.atMs]), [
 *   ["store_unreachable", 1_000_000],
 *   ["store_recovered", 1_006_000],
 * ]);
 * ```
 */
export function recordStoreOutages(
  evidence: StoreEvidence,
  options: OutageHistoryOptions,
): () => void {
  const { history, clock } = options;
  return evidence.onResume((lastAnswer, answered) => {
    const wallNow = clock.now();
    const monotonicNow = clock.monotonic();
    const wall = (monotonic: number) => wallNow - (monotonicNow - monotonic);
    const durationMs = answered - lastAnswer;
    const since = new Date(wall(lastAnswer)).toISOString().slice(11, 23);
    const instanceId = options.instance();
    for (const namespace of options.namespaces()) {
      void history.record(namespace, {
        type: "store_unreachable",
        atMs: wall(lastAnswer),
        instanceId,
        durationMs,
        text: `store unreachable for ${seconds(durationMs)} (no answer after ${since} UTC, ` +
          `seen by instance ${instanceId}): rebalancing paused, liveness unknown`,
      });
      void history.record(namespace, {
        type: "store_recovered",
        atMs: wall(answered),
        instanceId,
        durationMs,
        text: `store answering again after ${seconds(durationMs)}: executors get one ` +
          `heartbeatTTL to be heard before any is declared lost`,
      });
    }
  });
}
