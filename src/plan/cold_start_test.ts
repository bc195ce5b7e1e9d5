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
import type { ChurnRules } from "./churn_rules.ts";

const WAITING = { ...RULES, coldStartWaitMs: 20_000 };
const BALANCERS = ["naive", "greedy"] as const;

/** 200 executors joining 25 ms apart (5 s in all), a pass every 500 ms. */
function coldStart(rules: ChurnRules = WAITING) {
  const fleet = new TestFleet(churnPolicy(loadBalancerFor("greedy"), 10_000, rules, 10_000));
  let ownedAt = NaN;
  for (let t = 0; t <= 60_000; t += 25) {
    if (t <= 5_000 && t / 25 < 200) fleet.members.set(`e${t / 25}`, { since: t });
    if (t % 500 === 0) {
      fleet.pass(t);
      if (Number.isNaN(ownedAt) && fleet.owners.size === 10_000) ownedAt = t;
    }
  }
  return { placements: fleet.placements / 10_000, ownedAt };
}

Deno.test("cold start wait: placement waits for the fleet, then places each shard once", () => {
  const waited = coldStart();
  assert.equal(waited.placements, 1);
  // The last executor joined at 4,975 ms; the window of 3 s ends at 7,975: the next pass places.
  assert.equal(waited.ownedAt, 8_000);
  const eager = coldStart(RULES);
  assert.ok(eager.placements > 1.5, `without the wait: ${eager.placements} placements per shard`);
  assert.equal(eager.ownedAt, 0);
});

Deno.test("cold start wait: never past the wait after the first executor joined", () => {
  for (const name of BALANCERS) {
    const policy = churnPolicy(loadBalancerFor(name), 12, { ...RULES, coldStartWaitMs: 5_000 });
    // a joined at 1,000; b keeps the set growing (joined at 5,500): the wait ends at 6,000.
    const members = { a: { since: 1_000 }, b: { since: 5_500 } };
    const held = planPass(churnInput(5_900, members, new Map()), policy);
    assert.deepEqual(held.delta.assign, {}, name);
    assert.equal(held.wakeAtMs, 6_000, "a pass is due when the wait ends");
    assert.equal(held.coldStartUntilMs, 6_000, "the leader logs the wait");
    const placed = planPass(churnInput(6_000, members, new Map()), policy);
    assert.equal(placed.reasons?.placement, 12, name);
    assert.equal(placed.coldStartUntilMs, undefined);
  }
});

Deno.test("cold start wait: does not hold back shards while anything runs", () => {
  const policy = churnPolicy(loadBalancerFor("greedy"), 12, WAITING);
  // a holds one shard; b just joined: the other 11 are placed at once.
  const plan = planPass(
    churnInput(10_000, { a: {}, b: { since: 9_900 } }, new Map([["0", "a"]])),
    policy,
  );
  assert.equal(plan.reasons?.placement, 11);
});

Deno.test("cold start wait: a namespace that had owners is never held, even with its whole fleet lost", () => {
  const policy = churnPolicy(loadBalancerFor("greedy"), 12, WAITING);
  const members = { old: { alive: false }, new1: { since: 9_000 } };
  // The lost owners are still recorded: their shards go to the newcomer at once.
  const owners = new Map(Array.from({ length: 12 }, (_, i) => [String(i), "old"]));
  const placed = planPass(churnInput(10_000, members, owners), policy);
  assert.equal(placed.delta.assign.new1?.length, 12);
  assert.equal(placed.reasons?.loss, 12);
  // Their shards were already unassigned: the change log (a committed change) still says so.
  const unowned = { ...churnInput(10_000, members, new Map()), assignmentSeq: 5 };
  assert.equal(planPass(unowned, policy).reasons?.placement, 12);
  // The same input in a namespace whose change log is empty: a first deploy, held.
  const fresh = { ...unowned, assignmentSeq: 0 };
  assert.deepEqual(planPass(fresh, policy).delta.assign, {});
  assert.equal(planPass(fresh, policy).wakeAtMs, 12_000);
});

Deno.test("cold start wait: a leader failover does not hold a namespace with owners", () => {
  // A new leader sees every executor as joined when it loaded the namespace (9,900 ms):
  // all of them settle, and b's loss must still be repaired at once.
  const policy = churnPolicy(loadBalancerFor("greedy"), 12, WAITING);
  const owners = new Map(Array.from({ length: 12 }, (_, i) => [String(i), i < 6 ? "a" : "b"]));
  const members = { a: { since: 9_900 }, b: { since: 9_900, alive: false }, c: { since: 9_900 } };
  const plan = planPass({ ...churnInput(10_000, members, owners), assignmentSeq: 40 }, policy);
  assert.equal(plan.reasons?.loss, 6);
  assert.equal(Object.values(plan.delta.assign).flat().length, 6);
  assert.equal(plan.wakeAtMs, 12_900, "only balancing waits for the settling window");
});

Deno.test("cold start wait: a first deploy commits nothing while it waits", () => {
  // a joined and went stale while b and c still join: hiding a would commit a change, and
  // a committed change says the namespace had owners.
  const policy = churnPolicy(loadBalancerFor("greedy"), 12, WAITING);
  const members = { a: { since: 0, alive: false }, b: { since: 9_000 }, c: { since: 9_500 } };
  const held = planPass(churnInput(10_000, members, new Map()), policy);
  assert.deepEqual(held.delta, { assign: {}, unassign: [], remove: [] });
  // The first placement hides it with the same change.
  const placed = planPass(churnInput(12_500, members, new Map()), policy);
  assert.equal(placed.reasons?.placement, 12);
  assert.ok(placed.delta.hide?.a !== undefined, JSON.stringify(placed.delta));
});

Deno.test("cold start wait: a trickle of joins cannot hold placement past the bound", () => {
  const fleet = new TestFleet(churnPolicy(loadBalancerFor("greedy"), 1_000, WAITING, 1_000));
  let ownedAt = NaN;
  // One executor joins every 2 s, within the 3 s window, for a minute: the window never ends.
  for (let t = 0; t <= 60_000; t += 100) {
    if (t % 2_000 === 0) fleet.members.set(`e${t / 2_000}`, { since: t });
    if (t % 500 === 0) {
      fleet.pass(t);
      if (Number.isNaN(ownedAt) && fleet.owners.size === 1_000) ownedAt = t;
    }
  }
  assert.equal(ownedAt, 20_000, "placed when the 20 s wait after the first join ended");
});

Deno.test("cold start wait: off when 0 or when the settling window is 0", () => {
  for (const rules of [{ ...RULES, coldStartWaitMs: 0 }, { ...WAITING, settleWindowMs: 0 }]) {
    const policy = churnPolicy(loadBalancerFor("greedy"), 12, rules);
    const plan = planPass(churnInput(10_000, { a: { since: 9_900 } }, new Map()), policy);
    assert.equal(plan.reasons?.placement, 12);
  }
});

Deno.test("cold start wait: a replicated namespace waits the same way", () => {
  const policy = replicatedChurnPolicy(WAITING);
  const members = { a: { since: 9_000 }, b: { since: 9_500 } };
  const held = planPass(churnInput(10_000, members, new Map()), policy);
  assert.deepEqual(held.delta.assign, {});
  assert.equal(held.placement?.shortShards, 12);
  assert.equal(held.wakeAtMs, 12_500);
  const placed = planPass(churnInput(12_500, members, new Map()), policy);
  assert.equal(placed.reasons?.placement, 24);
});

Deno.test("cold start wait: a draining executor still runs its shards: no wait for its drain", () => {
  const policy = churnPolicy(loadBalancerFor("greedy"), 12, WAITING);
  const owners = new Map(Array.from({ length: 12 }, (_, i) => [String(i), "old"]));
  const members = { old: { status: "DRAINING" as const }, new1: { since: 9_900 } };
  const plan = planPass(churnInput(10_000, members, owners), policy);
  assert.equal(plan.delta.assign.new1?.length, 12);
  assert.equal(plan.reasons?.drain, 12);
});
