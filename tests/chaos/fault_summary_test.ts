import assert from "node:assert/strict";
import { degradationRows } from "./fault_summary.ts";
import type { InjectedFault } from "./run.ts";

const fault = (over: Partial<InjectedFault>): InjectedFault => ({
  kind: "slow-lossy-links",
  targets: [],
  holdMs: 5_000,
  at: 0,
  target: "all links",
  settledMs: 0,
  violationsAfter: 0,
  moves: [],
  unowned: { gaps: 0, longestMs: 0 },
  ...over,
});

Deno.test("slow links and clock faults are summed up in rows; other faults add none", () => {
  const load = (maxInFlight: number, failed: number) => ({
    heartbeatFailures: { "exec-0": failed },
    effects: {
      links: {
        durationMs: 5_000,
        executors: [{
          executor: "exec-0",
          baselineMaxInFlight: 3,
          maxInFlight,
          baselineCallsPerSecond: 4,
          callsPerSecond: 5,
          stalls: 7,
          resets: 1,
        }],
      },
    },
  });
  const rows = new Map(degradationRows([
    fault({ ...load(4, 2), unowned: { gaps: 2, longestMs: 1_800 } }),
    fault(load(6, 3)),
    fault({
      kind: "clock-step",
      clock: "-30s",
      effects: { led: ["chaos-x"] },
      moves: ["chaos-a/1: exec-0.0 -> exec-1.0"],
    }),
    fault({ kind: "service-sigkill" }),
  ]));
  assert.equal(rows.get("slow links: calls in flight/executor"), "max 6 (healthy before: max 3)");
  assert.equal(
    rows.get("slow links: failed heartbeats/exec"),
    "max 3 per fault (held 5000, 5000 ms)",
  );
  assert.equal(rows.get("slow links: stalls, resets"), "14, 2");
  assert.equal(rows.get("slow links: shards unowned"), "2 times, longest 1800 ms");
  assert.equal(rows.get("clock-step: shards moved"), "1 (-30s led)");
  assert.equal(rows.has("clock-drift: shards moved"), false);
});
