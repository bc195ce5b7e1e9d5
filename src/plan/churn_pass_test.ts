import assert from "node:assert/strict";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import {
  churnInput,
  churnPolicy,
  replicatedChurnPolicy,
  RULES,
  TestFleet,
} from "./_churn_testing.ts";
import { planPass } from "./plan_pass.ts";

const BALANCERS = ["naive", "greedy"] as const;

/** 12 shards on a and b, 6 each. */
function twoOwners(): Map<string, string> {
  return new Map(Array.from({ length: 12 }, (_, i) => [String(i), i % 2 === 0 ? "a" : "b"]));
}

Deno.test("churn rules: no balancing while an executor joined within the settling window", () => {
  for (const name of BALANCERS) {
    const policy = churnPolicy(loadBalancerFor(name), 12);
    const input = churnInput(10_000, { a: {}, b: {}, c: { since: 9_000 } }, twoOwners());
    const plan = planPass(input, policy);
    assert.deepEqual(plan.delta.assign, {}, name);
    assert.equal(plan.moves, 0);
    assert.equal(plan.wakeAtMs, 12_000, "a pass is due when the window ends");
    const later = planPass({ ...input, now: 12_000 }, policy);
    assert.equal(later.delta.assign.c?.length, 4, name);
    assert.deepEqual(later.reasons, { placement: 0, balance: 4, drain: 0, loss: 0 });
  }
});

Deno.test("churn rules: unowned shards are placed at once while executors join", () => {
  for (const name of BALANCERS) {
    const policy = churnPolicy(loadBalancerFor(name), 12);
    const input = churnInput(10_000, { a: { since: 9_900 } }, new Map());
    const plan = planPass(input, policy);
    assert.equal(plan.delta.assign.a?.length, 12, name);
    assert.deepEqual(plan.reasons, { placement: 12, balance: 0, drain: 0, loss: 0 });
  }
});

Deno.test("churn rules: a draining executor's shards go to the new executor, one move each", () => {
  for (const name of BALANCERS) {
    const policy = churnPolicy(loadBalancerFor(name), 12);
    const members = { a: { status: "DRAINING" as const }, b: {}, c: { since: 9_000 } };
    const plan = planPass(churnInput(10_000, members, twoOwners()), policy);
    assert.deepEqual(plan.delta.assign, { c: ["0", "2", "4", "6", "8", "10"] }, name);
    assert.deepEqual(plan.reasons, { placement: 0, balance: 0, drain: 6, loss: 0 });
  }
});

Deno.test("churn rules: a lost executor's shards count as loss", () => {
  const policy = churnPolicy(loadBalancerFor("greedy"), 12);
  const plan = planPass(churnInput(10_000, { a: { alive: false }, b: {} }, twoOwners()), policy);
  assert.equal(plan.delta.assign.b?.length, 6);
  assert.deepEqual(plan.reasons, { placement: 0, balance: 0, drain: 0, loss: 6 });
});

Deno.test("churn rules: a shard moved within the cooldown is not balanced, unless its owner drains", () => {
  for (const name of BALANCERS) {
    const policy = churnPolicy(loadBalancerFor(name), 12);
    // a holds 8, b 4; a's shards moved to it 10 s ago, except shard 7 70 s ago.
    const owners = new Map(Array.from({ length: 12 }, (_, i) => [String(i), i < 8 ? "a" : "b"]));
    const movedAt = new Map(Array.from({ length: 8 }, (_, i) => [String(i), 90_000]));
    movedAt.set("7", 30_000);
    const input = churnInput(100_000, { a: {}, b: {} }, owners, movedAt);
    const plan = planPass(input, policy);
    assert.deepEqual(plan.delta.assign, { b: ["7"] }, name);
    assert.equal(plan.wakeAtMs, 150_000, "a pass is due when the first cooldown ends");
    const drained = planPass(
      churnInput(100_000, { a: { status: "DRAINING" }, b: {} }, owners, movedAt),
      policy,
    );
    assert.equal(drained.delta.assign.b?.length, 8, name);
    assert.equal(drained.reasons?.drain, 8);
    // A newcomer short of half its share gets it even from shards in their cooldown.
    const joined = planPass(churnInput(100_000, { a: {}, b: {}, c: {} }, owners, movedAt), policy);
    assert.equal(joined.delta.assign.c?.length, 4, name);
  }
});

Deno.test("churn rules: load noise below minImprovement moves nothing", () => {
  // 10,000 shards balanced by count over 200 executors, loads 1 ± 10%.
  let seed = 7;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  const owners = new Map<string, string>();
  const reports: Record<string, Record<string, { status: "READY"; load: number }>> = {};
  for (let i = 0; i < 10_000; i++) {
    const owner = `e${i % 200}`;
    owners.set(String(i), owner);
    (reports[owner] ??= {})[String(i)] = { status: "READY", load: 0.9 + 0.2 * random() };
  }
  const members = Object.fromEntries(
    Object.entries(reports).map(([id, r]) => [id, { reports: r }]),
  );
  const input = churnInput(100_000, members, owners);
  const greedy = loadBalancerFor("greedy");
  const without = planPass(input, churnPolicy(greedy, 10_000, "none"));
  assert.ok(without.moves > 0, "the noise alone moves shards without the rules");
  const plan = planPass(input, churnPolicy(greedy, 10_000));
  assert.equal(plan.moves, 0);
});

Deno.test("churn rules: a rolling replacement costs one move per shard held by the replaced", () => {
  for (const name of BALANCERS) {
    const fleet = new TestFleet(churnPolicy(loadBalancerFor(name), 1_000));
    for (let i = 0; i < 20; i++) fleet.members.set(`old${i}`, {});
    fleet.pass(0);
    const placed = fleet.placements;
    let held = 0;
    let t = 100_000;
    for (let i = 0; i < 5; i++) {
      // Start the new one; once it is up (1 s later) the old one drains, then stops.
      held += fleet.held(`old${i}`);
      fleet.members.set(`new${i}`, { since: t });
      fleet.pass(t);
      fleet.members.set(`old${i}`, { status: "DRAINING" });
      fleet.run(t + 1_000, t + 2_000);
      fleet.members.set(`old${i}`, { status: "DRAINED" });
      fleet.run(t + 2_500, t + 10_000);
      t += 10_000;
    }
    fleet.run(t, t + 120_000, 5_000);
    const ratio = (fleet.placements - placed) / held;
    assert.ok(ratio <= 1.05, `${name}: ${ratio} moves per replaced shard`);
  }
});

Deno.test("churn rules: without them a rolling replacement moves about twice as much", () => {
  const fleet = new TestFleet(churnPolicy(loadBalancerFor("greedy"), 1_000, "none"));
  for (let i = 0; i < 20; i++) fleet.members.set(`old${i}`, {});
  fleet.pass(0);
  const placed = fleet.placements;
  let held = 0;
  let t = 100_000;
  for (let i = 0; i < 5; i++) {
    held += fleet.held(`old${i}`);
    fleet.members.set(`new${i}`, { since: t });
    fleet.pass(t);
    fleet.members.set(`old${i}`, { status: "DRAINING" });
    fleet.run(t + 1_000, t + 10_000);
    t += 10_000;
  }
  assert.ok((fleet.placements - placed) / held > 1.5);
});

Deno.test("churn rules: scale-out gives the new executors their share in one step", () => {
  const fleet = new TestFleet(churnPolicy(loadBalancerFor("greedy"), 1_000));
  for (let i = 0; i < 20; i++) fleet.members.set(`e${i}`, {});
  fleet.pass(0);
  const placed = fleet.placements;
  for (let i = 20; i < 22; i++) fleet.members.set(`e${i}`, { since: 100_000 + i * 100 });
  fleet.run(100_000, 200_000);
  // Each new executor needs floor(1000 / 22) = 45 shards at least.
  const moved = fleet.placements - placed;
  assert.ok(moved <= 92, `moved ${moved}`);
  assert.ok(fleet.held("e20") >= 45 && fleet.held("e21") >= 45);
});

Deno.test("churn rules: an exclusive namespace releases nothing while executors settle", () => {
  const policy = {
    ...churnPolicy(loadBalancerFor("greedy"), 12),
    exclusive: { leaseMs: 2_000, maxReliedOn: 10 },
  };
  const input = churnInput(10_000, { a: {}, b: {}, c: { since: 9_000 } }, twoOwners());
  const plan = planPass(input, policy);
  assert.deepEqual(plan.delta.release ?? [], []);
  const later = planPass(
    churnInput(13_000, { a: {}, b: {}, c: { since: 9_000 } }, twoOwners()),
    policy,
  );
  assert.equal(later.delta.release?.length, 4);
  assert.equal(later.reasons?.balance, 4);
});

Deno.test("churn rules: a replicated namespace completes owner sets but waits to rebalance", () => {
  const policy = replicatedChurnPolicy();
  const first = planPass(churnInput(10_000, { a: {}, b: {} }, new Map()), policy);
  assert.equal(first.reasons?.placement, 24);
  const owners = new Map<string, string>();
  const input0 = churnInput(10_000, { a: {}, b: {}, c: { since: 9_500 } }, owners);
  const sets = new Map<string, readonly string[]>();
  for (const [primary, shards] of Object.entries(first.delta.assign)) {
    for (const s of shards) {
      owners.set(s, primary);
      sets.set(s, first.delta.sets?.[s] ?? [primary]);
    }
  }
  const byExecutor = new Map<string, Set<string>>();
  for (const [s, set] of sets) {
    for (const id of set) {
      let held = byExecutor.get(id);
      if (!held) byExecutor.set(id, held = new Set());
      held.add(s);
    }
  }
  const input = { ...input0, owners, ownerSets: sets, byExecutor };
  const settling = planPass(input, policy);
  assert.equal(settling.moves, 0);
  assert.equal(settling.wakeAtMs, 12_500);
  const settled = planPass({ ...input, now: 12_500 }, policy);
  assert.ok(settled.moves > 0);
  assert.equal(settled.reasons?.balance, settled.moves);
});

Deno.test("churn rules: hysteresis decides whether balancing starts, not where a budget-cut run stops", () => {
  // 100 shards on 4 executors, one of them with loads 1.06, the rest 1: a 6% gap.
  const owners = new Map<string, string>();
  const reports: Record<string, Record<string, { status: "READY"; load: number }>> = {};
  for (let i = 0; i < 100; i++) {
    const owner = `e${i % 4}`;
    owners.set(String(i), owner);
    (reports[owner] ??= {})[String(i)] = { status: "READY", load: owner === "e0" ? 1.06 : 1 };
  }
  const members = Object.fromEntries(
    Object.entries(reports).map(([id, r]) => [id, { reports: r }]),
  );
  const policy = churnPolicy(loadBalancerFor("greedy"), 100, RULES, 1);
  const input = churnInput(100_000, members, owners);
  assert.equal(planPass(input, policy).moves, 0, "below the 10% trigger");
  const going = planPass({ ...input, balancingUnfinished: true }, policy);
  assert.equal(going.moves, 1, "an unfinished run goes on");
  assert.equal(going.balancingUnfinished, true, "and says it used its whole budget");
  const big = churnInput(
    100_000,
    { a: {}, b: {} },
    new Map(Array.from({ length: 10 }, (_, i) => [String(i), "a"])),
  );
  assert.equal(
    planPass(big, churnPolicy(loadBalancerFor("greedy"), 10, RULES, 2)).balancingUnfinished,
    true,
  );
  assert.equal(
    planPass(big, churnPolicy(loadBalancerFor("greedy"), 10, RULES, 100)).balancingUnfinished,
    undefined,
  );
});
