/**
 * Summary rows for the faults that harm no process (slow links, clock
 * faults): how the cluster held up while they lasted.
 *
 * @module
 */
import type { InjectedFault } from "./run.ts";

/**
 * Rows for the printed summary; none when the run injected no such fault.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { degradationRows } from "./fault_summary.ts";
 *
 * assert.deepEqual(degradationRows([]), []);
 * ```
 */
export function degradationRows(
  faults: readonly InjectedFault[],
): [string, string | number][] {
  const rows: [string, string | number][] = [];
  const slow = faults.filter((f) => f.kind === "slow-lossy-links");
  if (slow.length > 0) {
    const loads = slow.flatMap((f) => f.effects?.links?.executors ?? []);
    const max = (values: number[]) => Math.max(0, ...values);
    const mean = (values: number[]) =>
      values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
    const failed = slow.flatMap((f) => Object.values(f.heartbeatFailures ?? {}));
    rows.push(
      [
        "slow links: calls in flight/executor",
        `max ${max(loads.map((l) => l.maxInFlight))} (healthy before: max ${
          max(loads.map((l) => l.baselineMaxInFlight))
        })`,
      ],
      [
        "slow links: calls/s per executor",
        `${mean(loads.map((l) => l.callsPerSecond)).toFixed(1)} (healthy before: ${
          mean(loads.map((l) => l.baselineCallsPerSecond)).toFixed(1)
        })`,
      ],
      [
        "slow links: failed heartbeats/exec",
        `max ${max(failed)} per fault (held ${slow.map((f) => f.holdMs).join(", ")} ms)`,
      ],
      [
        "slow links: stalls, resets",
        `${loads.reduce((n, l) => n + l.stalls, 0)}, ${loads.reduce((n, l) => n + l.resets, 0)}`,
      ],
      ["slow links: shards moved", slow.reduce((n, f) => n + f.moves.length, 0)],
      [
        "slow links: shards unowned",
        `${slow.reduce((n, f) => n + f.unowned.gaps, 0)} times, longest ${
          max(slow.map((f) => f.unowned.longestMs))
        } ms`,
      ],
    );
  }
  for (const kind of ["clock-step", "clock-drift"] as const) {
    const clock = faults.filter((f) => f.kind === kind);
    if (clock.length === 0) continue;
    rows.push([
      `${kind}: shards moved`,
      `${clock.reduce((n, f) => n + f.moves.length, 0)} (${
        clock.map((f) => `${f.clock}${f.effects?.led?.length ? " led" : ""}`).join(", ")
      })`,
    ]);
  }
  return rows;
}
