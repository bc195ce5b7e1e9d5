import assert from "node:assert/strict";
import { NamespaceState } from "../state/namespace_state.ts";
import { heartbeatAnswer } from "./heartbeat_answers.ts";

function commit(state: NamespaceState, revision: number, assign: Record<string, string[]>): void {
  state.apply({
    revision,
    events: [{ type: "assignment", seq: revision, delta: { assign, unassign: [], remove: [] } }],
  }, 0);
}

Deno.test("heartbeatAnswer's stamp moves exactly when the executor's shards or tokens change", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  commit(state, 2, { a: ["10", "9", "x"], b: ["1"] });
  const first = heartbeatAnswer(state, "a");
  assert.deepEqual(first.shards(), [
    { shardKey: "9", fencingToken: 2 },
    { shardKey: "10", fencingToken: 2 },
    { shardKey: "x", fencingToken: 2 },
  ]);
  assert.equal(heartbeatAnswer(state, "a").stamp, first.stamp);
  commit(state, 3, { b: ["2"] });
  assert.equal(heartbeatAnswer(state, "a").stamp, first.stamp, "b's change leaves a's answer");
  commit(state, 4, { b: ["9"] });
  const second = heartbeatAnswer(state, "a");
  assert.notEqual(second.stamp, first.stamp);
  assert.deepEqual(second.shards().map((s) => s.shardKey), ["10", "x"]);
  commit(state, 5, { a: ["9"] });
  const third = heartbeatAnswer(state, "a");
  assert.notEqual(third.stamp, second.stamp);
  assert.deepEqual(third.shards()[0], { shardKey: "9", fencingToken: 5 });
});

Deno.test("heartbeatAnswer answers an executor without shards with nothing", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  assert.deepEqual(heartbeatAnswer(state, "nobody").shards(), []);
});

Deno.test("heartbeatAnswer tells every owner of a replicated shard, with the set's token", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  state.apply({
    revision: 7,
    events: [{
      type: "assignment",
      seq: 1,
      delta: { assign: { a: ["s"] }, unassign: [], remove: [], sets: { s: ["a", "b"] } },
    }],
  }, 0);
  const stampOfC = heartbeatAnswer(state, "c").stamp;
  for (const id of ["a", "b"]) {
    assert.deepEqual(heartbeatAnswer(state, id).shards(), [{ shardKey: "s", fencingToken: 7 }]);
  }
  const stampOfB = heartbeatAnswer(state, "b").stamp;
  state.apply({
    revision: 8,
    events: [{
      type: "assignment",
      seq: 2,
      delta: { assign: { a: ["s"] }, unassign: [], remove: [], sets: { s: ["a", "c"] } },
    }],
  }, 0);
  assert.notEqual(heartbeatAnswer(state, "b").stamp, stampOfB, "b left the set");
  assert.deepEqual(heartbeatAnswer(state, "b").shards(), []);
  assert.notEqual(heartbeatAnswer(state, "c").stamp, stampOfC, "c joined it");
  assert.deepEqual(heartbeatAnswer(state, "c").shards(), [{ shardKey: "s", fencingToken: 8 }]);
});
