import assert from "node:assert/strict";
import { SliceMap } from "../core/slices.ts";
import { sliceMapText } from "../core/slice_map_codec.ts";
import { NamespaceState } from "./namespace_state.ts";

const EMPTY = { assign: {}, unassign: [], remove: [] };

Deno.test("state: a key-range namespace's slice map follows the changes that carry one", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 2_000 });
  assert.equal(state.sliceMap(), undefined);
  const first = SliceMap.initial(2);
  state.apply({
    revision: 2,
    events: [{
      type: "assignment",
      seq: 1,
      delta: { ...EMPTY, assign: { e1: ["0", "1"] }, slices: sliceMapText(first) },
    }],
  }, 0);
  assert.deepEqual(state.sliceMap()?.slices, first.slices);
  assert.equal(state.sliceMap(), state.sliceMap(), "decoded once");
  assert.equal(state.tables().slices, sliceMapText(first));
  // A change without one keeps it; one with one replaces it.
  state.apply({ revision: 3, events: [{ type: "assignment", seq: 2, delta: EMPTY }] }, 0);
  assert.deepEqual(state.sliceMap()?.slices, first.slices);
  const second = first.split(0, 1n << 40n);
  state.apply({
    revision: 4,
    events: [{
      type: "assignment",
      seq: 3,
      delta: { ...EMPTY, assign: { e1: ["2"] }, slices: sliceMapText(second) },
    }],
  }, 0);
  assert.deepEqual(state.sliceMap()?.slices, second.slices);
});

Deno.test("state: a snapshot's slice map is loaded, and a snapshot without one clears it", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 2_000 });
  const map = SliceMap.initial(3);
  const snapshot = {
    revision: 5,
    executors: new Map(),
    assignmentSeq: 1,
    owners: new Map([["0", "e1"]]),
    assignedRevisions: new Map([["0", 5]]),
    assignmentTimes: new Map(),
    drained: new Set<string>(),
    executorDrains: new Map(),
    requested: new Map(),
  };
  state.load({ ...snapshot, slices: sliceMapText(map) }, 0, 0);
  assert.deepEqual(state.sliceMap()?.slices, map.slices);
  state.load(snapshot, 0, 0);
  assert.equal(state.sliceMap(), undefined);
});
