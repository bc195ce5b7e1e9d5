import assert from "node:assert/strict";
import type { AssignmentDelta } from "../core/types.ts";
import type { NamespaceSnapshot } from "../store/store.ts";
import { NamespaceState } from "./namespace_state.ts";

const WALL = 1_700_000_000_000;

function snapshot(over: Partial<NamespaceSnapshot> = {}): NamespaceSnapshot {
  return {
    revision: 10,
    executors: new Map(),
    assignmentSeq: 1,
    owners: new Map([["0", "a"], ["1", "b"]]),
    ownerSets: new Map([["0", ["a", "b", "c"]]]),
    assignedRevisions: new Map([["0", 7], ["1", 8]]),
    assignmentTimes: new Map(),
    drained: new Set(),
    executorDrains: new Map(),
    requested: new Map(),
    ...over,
  };
}

function loaded(): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  state.load(snapshot(), 0, WALL);
  return state;
}

function commit(state: NamespaceState, revision: number, delta: AssignmentDelta) {
  return state.apply(
    { revision, events: [{ type: "assignment", seq: state.seq + 1, delta }] },
    0,
  );
}

Deno.test("namespace state lists a replicated shard under every owner, primary first", () => {
  const state = loaded();
  assert.deepEqual(state.ownersOf("0"), ["a", "b", "c"]);
  assert.deepEqual(state.ownersOf("1"), ["b"]);
  assert.deepEqual(state.ownersOf("nope"), []);
  assert.equal(state.ownerOf("0"), "a");
  assert.deepEqual([...state.shardsOf("a")], ["0"]);
  assert.deepEqual([...state.shardsOf("b")].sort(), ["0", "1"]);
  assert.deepEqual([...state.shardsOf("c")], ["0"]);
});

Deno.test("namespace state ignores a snapshot set whose primary is not the owner", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  state.load(snapshot({ ownerSets: new Map([["0", ["z", "a"]]]) }), 0, WALL);
  assert.deepEqual(state.ownersOf("0"), ["a"]);
  assert.equal(state.tables().ownerSets.size, 0);
});

Deno.test("namespace state applies owner sets, changing stamps of old and new members only", () => {
  const state = loaded();
  const stamps = () =>
    Object.fromEntries(["a", "b", "c", "d"].map((id) => [id, state.shardSetStamp(id)]));
  const before = stamps();
  commit(state, 11, {
    assign: { a: ["0"] },
    unassign: [],
    remove: [],
    sets: { "0": ["a", "b", "d"] },
  });
  const after = stamps();
  assert.deepEqual(state.ownersOf("0"), ["a", "b", "d"]);
  assert.deepEqual([...state.shardsOf("c")], []);
  assert.deepEqual([...state.shardsOf("d")], ["0"]);
  assert.equal(state.fencingToken("0"), 11, "a new set is a new fencing token for all");
  for (const id of ["a", "b", "c", "d"]) assert.notEqual(after[id], before[id], id);
  // A shard another executor holds alone is untouched.
  commit(state, 12, { assign: { b: ["1"] }, unassign: [], remove: [], sets: { "1": ["b", "c"] } });
  assert.equal(state.shardSetStamp("a"), after.a, "a is in neither set of shard 1");
  assert.equal(state.shardSetStamp("d"), after.d);
});

Deno.test("namespace state drops a set when its shard gets one owner, loses it or is removed", () => {
  const state = loaded();
  commit(state, 11, { assign: { c: ["0"] }, unassign: [], remove: [] });
  assert.deepEqual(state.ownersOf("0"), ["c"]);
  assert.deepEqual([...state.shardsOf("a")], []);
  commit(state, 12, { assign: { c: ["0"] }, unassign: [], remove: [], sets: { "0": ["c", "a"] } });
  commit(state, 13, { assign: {}, unassign: ["0"], remove: [] });
  assert.deepEqual(state.ownersOf("0"), []);
  assert.deepEqual([[...state.shardsOf("a")], [...state.shardsOf("c")]], [[], []]);
  assert.equal(state.tables().ownerSets.size, 0);
});

Deno.test("namespace state records a set change for watchers, even with the same primary", () => {
  const state = loaded();
  const from = state.revision;
  commit(state, 11, {
    assign: { a: ["0"] },
    unassign: [],
    remove: [],
    sets: { "0": ["a", "c", "b"] },
  });
  commit(state, 12, {
    assign: { a: ["0"] },
    unassign: [],
    remove: [],
    sets: { "0": ["a", "c", "b"] },
  });
  assert.deepEqual(state.changesSince(from), [
    { kind: "owner", shard: "0", owner: "a", owners: ["a", "c", "b"] },
  ]);
});
