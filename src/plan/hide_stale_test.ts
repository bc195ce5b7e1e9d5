import assert from "node:assert/strict";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { StoredExecutor } from "../store/store.ts";
import { type TestPassOptions as PassOptions, testPlan as planPass } from "./_testing.ts";

const TTL = 1_000;
const WALL = 1_700_000_000_000;

/** Executors seen at monotonic 0 (heartbeat revision 20 + index), owning `owners`. */
function stateOf(ids: string[], owners: Record<string, string>, hidden?: Map<string, number>) {
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  const executors = new Map<string, StoredExecutor>(ids.map((id, i) => [id, {
    executorId: id,
    heartbeat: { status: "ACTIVE", timestampMs: WALL },
    heartbeatRevision: 20 + i,
    metadata: {},
    reports: new Map(),
  }]));
  state.load(
    {
      revision: 30,
      executors,
      assignmentSeq: 1,
      owners: new Map(Object.entries(owners)),
      assignedRevisions: new Map(),
      assignmentTimes: new Map(),
      drained: new Set(),
      executorDrains: new Map(),
      requested: new Map(),
      ...(hidden ? { hidden } : {}),
    },
    0,
    WALL,
  );
  return state;
}

/** Executor a heard from at monotonic 1_500 (its record unchanged). */
const A_HEARD = { heard: { a: 1_500 } };

const options: PassOptions = {
  balancer: loadBalancerFor("naive"),
  maxMoves: 0,
  executorRetentionMs: 60_000,
};

Deno.test("a pass hides a stale executor in the change that takes its last shards", () => {
  const state = stateOf(["a", "b"], { "0": "a", "1": "b" });
  // Only b is stale: a was heard from at monotonic 1_500.
  const plan = planPass(state, { type: "fixed", shardNum: 2 }, 2_000, options, A_HEARD);
  assert.deepEqual(plan.delta.assign, { a: ["1"] });
  assert.deepEqual(plan.delta.hide, { b: 21 });
});

Deno.test("a stale executor that holds nothing is hidden once; a live one never", () => {
  const state = stateOf(["a", "idle"], { "0": "a" });
  assert.equal(
    planPass(state, { type: "fixed", shardNum: 1 }, 500, options, A_HEARD).delta.hide,
    undefined,
  );
  const plan = planPass(state, { type: "fixed", shardNum: 1 }, 2_000, options, A_HEARD);
  assert.deepEqual(plan.delta, { assign: {}, unassign: [], remove: [], hide: { idle: 21 } });
  const after = stateOf(["a", "idle"], { "0": "a" }, new Map([["idle", 21]]));
  assert.equal(
    planPass(after, { type: "fixed", shardNum: 1 }, 2_000, options, A_HEARD).delta.hide,
    undefined,
  );
});

Deno.test("a stale executor is hidden once its shards are gone too; one about to be forgotten is not", () => {
  // Nobody is alive: b's shard loses its owner, so b holds nothing afterwards.
  const state = stateOf(["b"], { "0": "b" });
  const plan = planPass(state, { type: "fixed", shardNum: 1 }, 2_000, options);
  assert.deepEqual(plan.delta.unassign, ["0"]);
  assert.deepEqual(plan.delta.hide, { b: 20 });
  const old = stateOf(["gone"], {});
  const forgotten = planPass(old, { type: "fixed", shardNum: 0 }, 70_000, options);
  assert.deepEqual(forgotten.forget, [{ executorId: "gone", heartbeatRevision: 20 }]);
  assert.equal(forgotten.delta.hide, undefined);
});

Deno.test("exclusive: a stale executor whose shard waits for its lease to expire stays listed", () => {
  const state = stateOf(["a", "b"], { "0": "a", "1": "b" });
  // b is stale at 1_100 (TTL 1 s) but its 5 s lease has not run out: the shard cannot move yet.
  const plan = planPass(state, { type: "fixed", shardNum: 2 }, 1_100, {
    ...options,
    exclusive: { leaseMs: 5_000 },
  }, A_HEARD);
  assert.ok(!Object.values(plan.delta.assign).flat().includes("1"), JSON.stringify(plan.delta));
  assert.equal(plan.delta.hide, undefined);
});
