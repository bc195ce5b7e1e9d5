import assert from "node:assert/strict";
import { reportsFrom } from "../core/shared_reports.ts";
import { HandoverTracker } from "./handover_tracker.ts";

const READY = { status: "READY", load: 1 } as const;

Deno.test("a handover ends when the new owner reports the shard READY", () => {
  const tracker = new HandoverTracker();
  tracker.assigned({ assign: { e1: ["a", "b"] }, unassign: [], remove: [], atMs: 1_000 });
  assert.deepEqual(
    tracker.reported("e2", reportsFrom({ a: READY }), 1_100),
    [],
    "not the new owner",
  );
  assert.deepEqual(
    tracker.reported("e1", reportsFrom({ a: { status: "DONE", load: 0 } }), 1_100),
    [],
  );
  assert.deepEqual(tracker.reported("e1", reportsFrom({ a: READY, b: READY }), 1_250), [250, 250]);
  assert.deepEqual(tracker.reported("e1", reportsFrom({ a: READY }), 1_300), [], "measured once");
  assert.equal(tracker.size, 0);
});

Deno.test("unassigned shards and changes without a time are not measured; the limit holds", () => {
  const tracker = new HandoverTracker(2);
  tracker.assigned({ assign: { e1: ["a"] }, unassign: [], remove: [] });
  assert.equal(tracker.size, 0);
  tracker.assigned({ assign: { e1: ["a", "b", "c"] }, unassign: [], remove: [], atMs: 5 });
  assert.equal(tracker.size, 2);
  tracker.assigned({ assign: {}, unassign: ["a"], remove: ["b"], atMs: 6 });
  assert.equal(tracker.size, 0);
});
