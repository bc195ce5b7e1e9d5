import assert from "node:assert/strict";
import * as prom from "prom-client";
import { RangeMetrics } from "./range_metrics.ts";

Deno.test("range metrics: edits by hand count as change=hand_<kind>, the planner's series unchanged", async () => {
  const registry = new prom.Registry();
  const ranges = new RangeMetrics([registry]);
  ranges.record("keys", { splits: 3, merges: 1, isolations: 0, keyspaceMoved: 0, slices: 8 });
  ranges.record("keys", {
    splits: 1,
    merges: 0,
    isolations: 0,
    keyspaceMoved: 0,
    slices: 9,
    byHand: { split: 2, merge: 1, pin: 0, unpin: 1 },
  });
  const changes = (await registry.metrics()).split("\n")
    .filter((line) => line.startsWith("sm_range_changes_total{")).sort();
  assert.deepEqual(changes, [
    'sm_range_changes_total{namespace="keys",change="hand_merge"} 1',
    'sm_range_changes_total{namespace="keys",change="hand_split"} 2',
    'sm_range_changes_total{namespace="keys",change="hand_unpin"} 1',
    'sm_range_changes_total{namespace="keys",change="merge"} 1',
    'sm_range_changes_total{namespace="keys",change="split"} 4',
  ]);
});
