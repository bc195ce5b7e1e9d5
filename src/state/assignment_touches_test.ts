import assert from "node:assert/strict";
import { addTouchedExecutors } from "./assignment_touches.ts";
import { NamespaceState } from "./namespace_state.ts";
import { OwnerIndex } from "./owner_index.ts";

function owners(entries: Record<string, string>): OwnerIndex {
  const index = new OwnerIndex();
  for (const [shard, owner] of Object.entries(entries)) index.setOwner(shard, owner, 1);
  return index;
}

const touched = (delta: Parameters<typeof addTouchedExecutors>[0], before: OwnerIndex) => {
  const out = new Set<string>();
  addTouchedExecutors(delta, before, out);
  return [...out].sort();
};

Deno.test("a move touches the old and the new owner only", () => {
  const before = owners({ "0": "a", "1": "b", "2": "c" });
  assert.deepEqual(touched({ assign: { c: ["0"] }, unassign: [], remove: [] }, before), ["a", "c"]);
});

Deno.test("unassigned, removed and released shards touch their owners", () => {
  const before = owners({ "0": "a", "1": "b", "2": "c", "3": "d" });
  assert.deepEqual(
    touched({ assign: {}, unassign: ["0"], remove: ["1"], release: ["2"] }, before),
    ["a", "b", "c"],
  );
});

Deno.test("owner sets touch every old and new member", () => {
  const before = new OwnerIndex();
  before.set("0", ["a", "b"], 1);
  assert.deepEqual(
    touched({ assign: { a: ["0"] }, unassign: [], remove: [], sets: { "0": ["a", "c"] } }, before),
    ["a", "b", "c"],
  );
});

Deno.test("NamespaceState.apply reports the executors a batch touched, none for heartbeats", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000, shardNum: 4 });
  const first = new Set<string>();
  state.apply(
    {
      revision: 2,
      events: [{
        type: "assignment",
        seq: 1,
        delta: { assign: { a: ["0", "1"], b: ["2", "3"] }, unassign: [], remove: [] },
      }],
    },
    0,
    first,
  );
  assert.deepEqual([...first].sort(), ["a", "b"]);
  const second = new Set<string>();
  state.apply(
    {
      revision: 3,
      events: [
        { type: "heartbeat", executorId: "c", record: { status: "ACTIVE", timestampMs: 1 } },
        { type: "assignment", seq: 2, delta: { assign: { c: ["3"] }, unassign: [], remove: [] } },
      ],
    },
    0,
    second,
  );
  assert.deepEqual([...second].sort(), ["b", "c"], "a is not told");
  const none = new Set<string>();
  state.apply(
    {
      revision: 4,
      events: [{
        type: "heartbeat",
        executorId: "a",
        record: { status: "ACTIVE", timestampMs: 2 },
      }],
    },
    0,
    none,
  );
  assert.equal(none.size, 0);
});
