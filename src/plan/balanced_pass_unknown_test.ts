import assert from "node:assert/strict";
import type { ExecutorDrain } from "../core/executor_drain.ts";
import type { ExecutorStatus } from "../core/types.ts";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { StoredExecutor } from "../store/store.ts";
import { type TestPassOptions as PassOptions, testPlan as planPass } from "./_testing.ts";

const TTL = 1_000;
const WALL = 1_700_000_000_000;

/** Executors (id → status, seen at monotonic 0) owning `owners`, loaded at revision 30. */
function stateOf(
  executors: Record<string, ExecutorStatus>,
  owners: Record<string, string>,
  extra: { sets?: Record<string, string[]>; drains?: ExecutorDrain[] } = {},
): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  const stored = new Map<string, StoredExecutor>();
  for (const [id, status] of Object.entries(executors)) {
    stored.set(id, {
      executorId: id,
      heartbeat: {
        status,
        ...(status === "UNKNOWN" ? { statusNumber: 7 } : {}),
        timestampMs: WALL,
      },
      heartbeatRevision: 20,
      metadata: {},
      reports: new Map(),
    });
  }
  state.load(
    {
      revision: 30,
      executors: stored,
      assignmentSeq: 1,
      owners: new Map(Object.entries(owners)),
      ...(extra.sets ? { ownerSets: new Map(Object.entries(extra.sets)) } : {}),
      assignedRevisions: new Map(),
      assignmentTimes: new Map(),
      drained: new Set(),
      executorDrains: new Map((extra.drains ?? []).map((d) => [d.id, d])),
      requested: new Map(),
    },
    0,
    WALL,
  );
  return state;
}

const options: PassOptions = {
  balancer: loadBalancerFor("greedy"),
  maxMoves: 10,
  executorRetentionMs: 60_000,
};

/** Shard → owner after the plan. */
function after(state: NamespaceState, plan: ReturnType<typeof planPass>): Map<string, string> {
  const owners = new Map(state.owned());
  for (const s of [...plan.delta.unassign, ...plan.delta.remove]) owners.delete(s);
  for (const [e, shards] of Object.entries(plan.delta.assign)) {
    for (const s of shards) owners.set(s, e);
  }
  return owners;
}

Deno.test("an executor of unknown status keeps its shards while alive and gets no new ones", () => {
  // u (UNKNOWN) holds 0..5, a holds nothing: greedy would move half of them, and place 6..7.
  const owners = Object.fromEntries(["0", "1", "2", "3", "4", "5"].map((s) => [s, "u"]));
  const state = stateOf({ u: "UNKNOWN", a: "ACTIVE" }, owners);
  const plan = planPass(state, { type: "fixed", shardNum: 8 }, 500, options);
  const next = after(state, plan);
  for (const s of ["0", "1", "2", "3", "4", "5"]) assert.equal(next.get(s), "u", `${s} stays`);
  assert.equal(next.get("6"), "a");
  assert.equal(next.get("7"), "a");
  assert.equal(plan.moves, 0);
  assert.deepEqual(plan.delta.unassign, []);
});

Deno.test("an executor of unknown status loses its shards once stale, like any other", () => {
  const state = stateOf({ u: "UNKNOWN", a: "ACTIVE" }, { "0": "u", "1": "u" });
  const plan = planPass(state, { type: "fixed", shardNum: 2 }, TTL + 1, options);
  // At TTL + 1 both are stale (seen at 0): the shards lose their owner.
  assert.deepEqual([...plan.delta.unassign].sort(), ["0", "1"]);
});

Deno.test("an operator drain still empties an executor of unknown status; DRAINING ones are emptied", () => {
  const drain: ExecutorDrain = { id: "id:u", executorId: "u", reason: "", createdAtMs: 1 };
  const drained = stateOf({ u: "UNKNOWN", a: "ACTIVE" }, { "0": "u" }, { drains: [drain] });
  assert.equal(
    after(drained, planPass(drained, { type: "fixed", shardNum: 1 }, 500, options)).get("0"),
    "a",
  );
  const draining = stateOf({ d: "DRAINING", a: "ACTIVE" }, { "0": "d" });
  assert.equal(
    after(draining, planPass(draining, { type: "fixed", shardNum: 1 }, 500, options)).get("0"),
    "a",
  );
});

Deno.test("in a replicated namespace a shard with an owner of unknown status keeps its whole set", () => {
  const executors: Record<string, ExecutorStatus> = {
    u: "UNKNOWN",
    a: "ACTIVE",
    b: "ACTIVE",
    c: "ACTIVE",
  };
  const state = stateOf(executors, { "0": "u", "1": "a" }, {
    sets: { "0": ["u", "a"], "1": ["a", "b"] },
  });
  const plan = planPass(state, { type: "fixed", shardNum: 2 }, 500, {
    ...options,
    replication: { replicas: 2, placement: "balanced", zoneKey: "zone", seed: 1 },
  });
  const touched = [...Object.values(plan.delta.assign).flat(), ...plan.delta.unassign];
  assert.ok(!touched.includes("0"), `shard 0 untouched, got ${JSON.stringify(plan.delta)}`);
});
