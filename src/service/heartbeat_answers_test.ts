import assert from "node:assert/strict";
import { NamespaceState } from "../state/namespace_state.ts";
import { HeartbeatAnswers } from "./heartbeat_answers.ts";

function commit(state: NamespaceState, revision: number, assign: Record<string, string[]>): void {
  state.apply({
    revision,
    events: [{ type: "assignment", seq: revision, delta: { assign, unassign: [], remove: [] } }],
  }, 0);
}

Deno.test("HeartbeatAnswers reuses an answer until the executor's shards change", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  const answers = new HeartbeatAnswers();
  commit(state, 2, { a: ["10", "9", "x"], b: ["1"] });
  const first = answers.answer(state, "a");
  assert.deepEqual(first.shards, [
    { shardKey: "9", fencingToken: 2 },
    { shardKey: "10", fencingToken: 2 },
    { shardKey: "x", fencingToken: 2 },
  ]);
  assert.equal(answers.answer(state, "a"), first);
  commit(state, 3, { b: ["2"] });
  assert.equal(answers.answer(state, "a"), first, "b's change leaves a's answer");
  commit(state, 4, { b: ["9"] });
  assert.deepEqual(answers.answer(state, "a").shards.map((s) => s.shardKey), ["10", "x"]);
  commit(state, 5, { a: ["9"] });
  assert.deepEqual(answers.answer(state, "a").shards[0], { shardKey: "9", fencingToken: 5 });
});

Deno.test("HeartbeatAnswers answers an executor without shards with nothing", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  assert.deepEqual(new HeartbeatAnswers().answer(state, "nobody").shards, []);
});
