import assert from "node:assert/strict";
import type { ShardReport } from "../core/types.ts";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { StoredExecutor } from "../store/store.ts";
import { type TestPassOptions, testPlan } from "./_testing.ts";

const WALL = 1_700_000_000_000;

/** Executors a, b, c alive; `owners`; a reports `reports` (or each its own, from `byExecutor`). */
function stateOf(
  owners: Record<string, string>,
  reports: Record<string, ShardReport>,
  executors = ["a", "b", "c"],
  byExecutor: Record<string, Record<string, ShardReport>> = { a: reports },
): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  const stored = new Map<string, StoredExecutor>();
  for (const id of executors) {
    stored.set(id, {
      executorId: id,
      heartbeat: { status: "ACTIVE", timestampMs: WALL },
      heartbeatRevision: 20,
      metadata: {},
      reports: new Map(Object.entries(byExecutor[id] ?? {})),
    });
  }
  state.load(
    {
      revision: 30,
      executors: stored,
      assignmentSeq: 1,
      owners: new Map(Object.entries(owners)),
      assignedRevisions: new Map(),
      assignmentTimes: new Map(),
      drained: new Set(),
      executorDrains: new Map(),
      requested: new Map(),
    },
    0,
    WALL,
  );
  return state;
}

const OPTIONS: TestPassOptions = {
  balancer: loadBalancerFor("greedy"),
  maxMoves: 0, // sticky: nothing moves but what must
  executorRetentionMs: 60_000,
};

const OWNERS = { "0": "a", "1": "a", "2": "b", "3": "c" };
const failing = (failedStarts: number): ShardReport => ({
  status: "NOT_RUNNING",
  load: 0,
  failedStarts,
});

Deno.test("a shard whose start failed 3 times on its owner moves to the next executor", () => {
  const state = stateOf(OWNERS, { "0": failing(3), "1": { status: "READY", load: 1 } });
  const plan = testPlan(state, { type: "fixed", shardNum: 4 }, 100, OPTIONS);
  assert.deepEqual(plan.delta.assign, { b: ["0"] });
  assert.deepEqual(plan.delta.unassign, []);
  // From the last one it wraps around: a shard failing everywhere meets every executor in turn.
  const last = stateOf({ "0": "c", "1": "a", "2": "b" }, {}, ["a", "b", "c"], {
    c: { "0": failing(3) },
  });
  assert.deepEqual(testPlan(last, { type: "fixed", shardNum: 3 }, 100, OPTIONS).delta.assign, {
    a: ["0"],
  });
});

Deno.test("fewer failed starts, or a single executor, keep the shard where it is", () => {
  const fewer = stateOf(OWNERS, { "0": failing(2) });
  assert.deepEqual(testPlan(fewer, { type: "fixed", shardNum: 4 }, 100, OPTIONS).delta.assign, {});
  const alone = stateOf({ "0": "a", "1": "a" }, { "0": failing(9) }, ["a"]);
  assert.deepEqual(testPlan(alone, { type: "fixed", shardNum: 2 }, 100, OPTIONS).delta.assign, {});
});

Deno.test("in an exclusive namespace the failing owner is asked to release it first", () => {
  const state = stateOf(OWNERS, { "0": failing(3) });
  const plan = testPlan(state, { type: "fixed", shardNum: 4 }, 100, {
    ...OPTIONS,
    exclusive: { leaseMs: 1_000 },
  });
  assert.deepEqual(plan.delta.release, ["0"]);
  assert.deepEqual(plan.delta.assign, {});
});
