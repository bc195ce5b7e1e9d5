import assert from "node:assert/strict";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { StoredExecutor } from "../store/store.ts";
import { type TestPassOptions as PassOptions, testPlan as planPass } from "./_testing.ts";
import { setDrained } from "../state/_testing.ts";
import { replicationSeed } from "./replicated_pass.ts";

const WALL = 1_700_000_000_000;

function stateOf(
  zones: Record<string, string>,
  sets: Record<string, string[]> = {},
  stale: string[] = [],
): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  const executors = new Map<string, StoredExecutor>();
  for (const [id, zone] of Object.entries(zones)) {
    executors.set(id, {
      executorId: id,
      heartbeat: { status: "ACTIVE", timestampMs: stale.includes(id) ? 0 : WALL },
      heartbeatRevision: 5,
      metadata: { az: zone },
      reports: new Map(),
    });
  }
  const owners = new Map<string, string>();
  const ownerSets = new Map<string, string[]>();
  for (const [shard, set] of Object.entries(sets)) {
    owners.set(shard, set[0]!);
    if (set.length > 1) ownerSets.set(shard, set);
  }
  state.load(
    {
      revision: 30,
      executors,
      assignmentSeq: 1,
      owners,
      ownerSets,
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

function options(placement: "balanced" | "shuffle", maxMoves = 100): PassOptions {
  return {
    balancer: loadBalancerFor("greedy"),
    maxMoves,
    executorRetentionMs: 60_000,
    replication: {
      replicas: 3,
      placement,
      ...(placement === "shuffle" ? { maxOverlap: 1 } : {}),
      zoneKey: "az",
      seed: replicationSeed("ns"),
    },
  };
}

const ZONES = { a: "z1", b: "z1", c: "z2", d: "z2", e: "z3", f: "z3" };

Deno.test("a replicated pass gives every shard 3 owners in 3 zones, listed under the primary", () => {
  const state = stateOf(ZONES);
  const plan = planPass(state, { type: "fixed", shardNum: 4 }, 100, options("balanced"));
  const sets = plan.delta.sets ?? {};
  assert.deepEqual(Object.keys(sets).sort(), ["0", "1", "2", "3"]);
  for (const [shard, set] of Object.entries(sets)) {
    assert.equal(new Set(set.map((id) => ZONES[id as keyof typeof ZONES])).size, 3, shard);
    assert.ok(plan.delta.assign[set[0]!]?.includes(shard), "assigned to its primary");
  }
  assert.deepEqual(plan.placement, { replicas: 3, shortShards: 0, zoneSpreadViolations: 0 });
});

Deno.test("a replicated pass changes nothing for balanced sets, and replaces only a lost owner", () => {
  const sets = { "0": ["a", "c", "e"], "1": ["b", "d", "f"] };
  const steady = planPass(
    stateOf(ZONES, sets),
    { type: "fixed", shardNum: 2 },
    100,
    options("balanced"),
  );
  assert.deepEqual(steady.delta, { assign: {}, unassign: [], remove: [] });
  const lost = planPass(
    stateOf(ZONES, sets, ["c"]),
    { type: "fixed", shardNum: 2 },
    100,
    options("balanced"),
  );
  assert.deepEqual(lost.delta.sets, { "0": ["a", "e", "d"] });
  assert.deepEqual(lost.delta.assign, { a: ["0"] });
  assert.equal(lost.moves, 0, "filling a lost replica is not a move");
});

Deno.test("a replicated pass reports shards short of owners", () => {
  const plan = planPass(
    stateOf({ a: "z1", b: "z2" }),
    { type: "fixed", shardNum: 2 },
    100,
    options("balanced"),
  );
  assert.equal(plan.placement?.replicas, 2);
  assert.equal(plan.placement?.shortShards, 2);
});

Deno.test("a shuffle pass reports the overlap it achieved", () => {
  // 3 zones of 2: sets of 3 sharing at most 1 — only 8 such sets exist, so 12 shards break it.
  const plan = planPass(stateOf(ZONES), { type: "fixed", shardNum: 12 }, 100, options("shuffle"));
  assert.equal(plan.placement?.overlapBound, 1);
  assert.ok((plan.placement?.maxOverlap ?? 0) >= 2);
  assert.ok((plan.placement?.shardsOverBound ?? 0) > 0);
  const few = planPass(stateOf(ZONES), { type: "fixed", shardNum: 4 }, 100, options("shuffle"));
  assert.deepEqual(
    [few.placement?.maxOverlap, few.placement?.shardsOverBound],
    [1, 0],
  );
});

Deno.test("a replicated pass unassigns drained shards and the seed follows the name", () => {
  const state = stateOf(ZONES, { "0": ["a", "c", "e"] });
  setDrained(state, "0");
  const plan = planPass(state, { type: "fixed", shardNum: 1 }, 100, options("balanced"));
  assert.deepEqual(plan.delta.unassign, ["0"]);
  assert.equal(replicationSeed("ns"), replicationSeed("ns"));
  assert.notEqual(replicationSeed("ns"), replicationSeed("other"));
});
