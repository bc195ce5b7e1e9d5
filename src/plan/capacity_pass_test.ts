import assert from "node:assert/strict";
import type { Preparing } from "../core/assignment.ts";
import { reportsFrom } from "../core/shared_reports.ts";
import type { ShardReport } from "../core/types.ts";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { StoredExecutor } from "../store/store.ts";
import type { Capacity } from "../shared/capacity.ts";
import { testInput } from "./_testing.ts";
import type { Plan } from "./plan.ts";
import type { PlanInput } from "./plan_input.ts";
import { planPass } from "./plan_pass.ts";
import type { BalancedPolicy } from "./plan_policy.ts";

const TTL = 1_000;
const WALL = 1_700_000_000_000;

interface Executor {
  /** Shards reported READY with their load (1 when not given). */
  ready?: Record<string, number>;
  /** Shards reported PREPARED. */
  prepared?: string[];
  metadata?: Record<string, string>;
}

interface Picture {
  executors: Record<string, Executor>;
  owners?: Record<string, string>;
  preparing?: Record<string, Preparing>;
  /** Ephemeral shards asked for and not placed yet. */
  requested?: string[];
}

/** A state loaded at monotonic 0: every executor seen then, with warm handover. */
function stateOf(picture: Picture): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  const executors = new Map<string, StoredExecutor>();
  let revision = 50;
  for (const [id, e] of Object.entries(picture.executors)) {
    const reports: Record<string, ShardReport> = {};
    for (const [shard, load] of Object.entries(e.ready ?? {})) {
      reports[shard] = { status: "READY", load };
    }
    for (const shard of e.prepared ?? []) reports[shard] = { status: "PREPARED", load: 0 };
    const heartbeatRevision = revision++;
    executors.set(id, {
      executorId: id,
      heartbeat: { status: "ACTIVE", timestampMs: WALL, warmHandover: true },
      heartbeatRevision,
      metadata: e.metadata ?? {},
      reports: reportsFrom(reports),
    });
  }
  const owners = picture.owners ?? {};
  state.load(
    {
      revision: 100,
      executors,
      assignmentSeq: 1,
      owners: new Map(Object.entries(owners)),
      assignedRevisions: new Map(Object.keys(owners).map((s) => [s, 5])),
      assignmentTimes: new Map(),
      releasing: new Map(),
      preparing: new Map(Object.entries(picture.preparing ?? {})),
      drained: new Set(),
      executorDrains: new Map(),
      requested: new Map((picture.requested ?? []).map((key) => [key, 60])),
    },
    0,
    WALL,
  );
  return state;
}

function policy(shardNum: number, capacity?: Capacity, extra: Partial<BalancedPolicy> = {}) {
  return {
    kind: "balanced",
    universe: { kind: "fixed", shardNum },
    balancer: loadBalancerFor("greedy"),
    maxMoves: 100,
    executorRetentionMs: 600_000,
    ...(capacity ? { capacity } : {}),
    ...extra,
  } satisfies BalancedPolicy;
}

/** Shards each executor holds once `plan` is applied to `input`'s owners. */
function holdings(input: PlanInput, plan: Plan): Record<string, number> {
  const owners = new Map(input.owners);
  for (const shard of plan.delta.unassign) owners.delete(shard);
  for (const [executor, shards] of Object.entries(plan.delta.assign)) {
    for (const shard of shards) owners.set(shard, executor);
  }
  const counts: Record<string, number> = {};
  for (const owner of owners.values()) counts[owner] = (counts[owner] ?? 0) + 1;
  return counts;
}

Deno.test("capacity: a pass gives no executor more than executorCapacity; the rest stay unowned", () => {
  const state = stateOf({ executors: { a: {}, b: {} } });
  const input = testInput(state, 10);
  const plan = planPass(input, policy(10, { shards: 3 }));
  assert.deepEqual(holdings(input, plan), { a: 3, b: 3 });
  assert.equal(plan.unplaced, 4);
  // Without a capacity every shard is placed.
  const free = planPass(input, policy(10));
  assert.deepEqual(holdings(input, free), { a: 5, b: 5 });
  assert.equal(free.unplaced, undefined);
});

Deno.test("capacity: an executor's declared capacity replaces the namespace's, and the rest goes where there is room", () => {
  const state = stateOf({
    executors: { a: { metadata: { "sm.capacity.shards": "1" } }, b: {} },
  });
  const input = testInput(state, 10);
  const plan = planPass(input, policy(6, { shards: 5 }));
  assert.deepEqual(holdings(input, plan), { a: 1, b: 5 });
  assert.equal(plan.unplaced, undefined);
});

Deno.test("capacity: load units bound the sum of an executor's reported loads", () => {
  // a runs shard 0 (load 5), b shard 1 (load 1); shards 2 and 3 are new: their load is taken
  // as the mean of the known ones (3). With room for 5 units, a takes none and b one.
  const state = stateOf({
    executors: { a: { ready: { "0": 5 } }, b: { ready: { "1": 1 } } },
    owners: { "0": "a", "1": "b" },
  });
  const input = testInput(state, 10);
  const plan = planPass(input, policy(4, { load: 5 }));
  assert.deepEqual(holdings(input, plan), { a: 1, b: 2 });
  assert.equal(plan.unplaced, 1);
});

Deno.test("mass-loss brake: survivors take at most twice their share of the fleet before the loss, and nothing is balanced", () => {
  const ready = (...shards: string[]) => Object.fromEntries(shards.map((s) => [s, 1]));
  const state = stateOf({
    executors: {
      a: { ready: ready("0", "1", "2", "3") },
      b: { ready: ready("4", "5") },
      c: { ready: ready("6", "7", "8") },
      d: { ready: ready("9", "10", "11") },
    },
    owners: Object.fromEntries(
      ["a", "a", "a", "a", "b", "b", "c", "c", "c", "d", "d", "d"].map((e, i) => [String(i), e]),
    ),
  });
  // c and d are lost: only a and b were heard from since.
  const input = testInput(state, 5_000, {}, { heard: { a: 4_900, b: 4_900 } });
  // Say the fleet had 8 executors before the loss: a fair share is 12 / 8 → 2, and a survivor
  // with no capacity set takes at most twice that: a keeps its 4 and takes nothing, b takes 2.
  const braked = planPass({ ...input, brake: { executorsBefore: 8 } }, policy(12));
  assert.deepEqual(holdings(input, braked), { a: 4, b: 4 });
  assert.equal(braked.unplaced, 4);
  // Of a fleet of 4, twice a fair share (3) is 6: the two survivors can carry all 12.
  const half = planPass({ ...input, brake: { executorsBefore: 4 } }, policy(12));
  assert.equal(half.unplaced ?? 0, 0);
  assert.deepEqual(holdings(input, half), { a: 6, b: 6 });
  assert.equal(braked.reasons?.balance, 0, "no balancing move");
  // A configured capacity is what the survivors may take instead.
  const sized = planPass({ ...input, brake: { executorsBefore: 4 } }, policy(12, { shards: 5 }));
  assert.deepEqual(holdings(input, sized), { a: 5, b: 5 });
  assert.equal(sized.unplaced, 2);
  // Released, every shard is placed on the survivors.
  const released = planPass(input, policy(12));
  assert.deepEqual(holdings(input, released), { a: 6, b: 6 });
});

Deno.test("capacity: a shard being prepared counts on its incoming owner", () => {
  // b prepares shard 0 (a warm move from a); shard 3 is new. With room for one shard each,
  // b is full with the shard it prepares, and a keeps what it has.
  const state = stateOf({
    executors: { a: { ready: { "0": 1, "1": 1, "2": 1 } }, b: { prepared: ["0"] } },
    owners: { "0": "a", "1": "a", "2": "a" },
    preparing: { "0": { executor: "b", revision: 90 } },
  });
  const input = testInput(state, 10);
  const warm = { warm: { prepareTimeoutMs: 5_000, maxPreparesPerExecutor: 32 } };
  const plan = planPass(input, policy(4, { shards: 1 }, warm));
  assert.deepEqual(plan.delta.assign, { b: ["0"] }, "the prepared shard switches to b");
  assert.equal(plan.unplaced, 1, "shard 3 has no room");
  // With room for two, b takes shard 3 too.
  const roomy = planPass(input, policy(4, { shards: 2 }, warm));
  assert.deepEqual(roomy.delta.assign.b?.toSorted(), ["0", "3"]);
});

Deno.test("capacity: an exclusive namespace leaves what does not fit unowned too", () => {
  const ready = (...shards: string[]) => Object.fromEntries(shards.map((s) => [s, 1]));
  const state = stateOf({
    executors: { a: { ready: ready("0", "1") }, b: { ready: ready("2", "3") } },
    owners: { "0": "a", "1": "a", "2": "b", "3": "b" },
  });
  // b is lost and its ownership lease long expired; a has room for one more shard.
  const input = testInput(state, 60_000, {}, { heard: { a: 59_900 } });
  const exclusive = { exclusive: { leaseMs: 2_000, maxReliedOn: 100 } };
  const plan = planPass(input, policy(4, { shards: 3 }, exclusive));
  assert.deepEqual(holdings(input, plan), { a: 3 });
  assert.equal(plan.unplaced, 1);
});

Deno.test("capacity: an ephemeral namespace's shards are bounded the same way", () => {
  const state = stateOf({
    executors: { a: { ready: { k1: 1 } } },
    owners: { k1: "a" },
    requested: ["k2"],
  });
  const input = testInput(state, 10);
  const ephemeral = { universe: { kind: "ephemeral" as const } };
  const full = planPass(input, policy(0, { shards: 1 }, ephemeral));
  assert.deepEqual(full.delta.assign, {}, "k2 waits for room");
  assert.equal(full.unplaced, 1);
  const roomy = planPass(input, policy(0, { shards: 2 }, ephemeral));
  assert.deepEqual(roomy.delta.assign, { a: ["k2"] });
});
