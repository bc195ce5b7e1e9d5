import assert from "node:assert/strict";
import { makeInput, roundRobin, seededRandom, shardCounts } from "./_fixtures.ts";
import { countMoves, greedyLoadBalancer, naiveLoadBalancer } from "./mod.ts";
import type { LoadBalancer } from "./mod.ts";

function pinnedContract(balancer: LoadBalancer): void {
  const name = balancer.name;

  Deno.test(`${name} plan never moves a pinned shard and still balances the rest`, () => {
    // 1,000 shards on 10 executors; an 11th joins; every third shard is pinned.
    const input = {
      ...makeInput(1_000, 11, roundRobin(1_000, 10)),
      pinned: Uint8Array.from({ length: 1_000 }, (_, i) => i % 3 === 0 ? 1 : 0),
    };
    const plan = balancer.plan(input, { maxMoves: 1_000 });
    for (let s = 0; s < 1_000; s += 3) assert.equal(plan[s], input.owners[s]);
    assert.equal(shardCounts(plan, 11)[10], 90);
    assert.equal(countMoves(input.owners, plan), 90);
  });

  Deno.test(`${name} plan with every shard pinned moves nothing but places the unowned`, () => {
    const owners = roundRobin(100, 2).map((o, i) => i >= 90 ? -1 : o);
    const input = { ...makeInput(100, 4, owners), pinned: new Uint8Array(100).fill(1) };
    const plan = balancer.plan(input, { maxMoves: 100 });
    assert.equal(countMoves(owners, plan), 0);
    assert.ok(plan.every((owner) => owner >= 0));
    for (let s = 90; s < 100; s++) assert.ok(plan[s]! >= 2, "unowned go to the empty executors");
  });

  Deno.test(`${name} plan refuses pinned of the wrong length`, () => {
    const input = { ...makeInput(3, 2), pinned: new Uint8Array(2) };
    assert.throws(() => balancer.plan(input, { maxMoves: 1 }), RangeError);
  });
}

pinnedContract(naiveLoadBalancer);
pinnedContract(greedyLoadBalancer);

Deno.test("greedy plan does not chase load noise below minImprovement", () => {
  // 10,000 shards on 200 executors, balanced by count, loads 1 ± 10%.
  const random = seededRandom(11);
  const loads = Float64Array.from({ length: 10_000 }, () => 0.9 + 0.2 * random());
  const input = makeInput(10_000, 200, roundRobin(10_000, 200), loads);
  const noisy = greedyLoadBalancer.plan(input, { maxMoves: 1_000 });
  assert.ok(countMoves(input.owners, noisy) > 0, "without hysteresis noise moves shards");
  const still = greedyLoadBalancer.plan(input, { maxMoves: 1_000, minImprovement: 0.1 });
  assert.equal(countMoves(input.owners, still), 0);
});

Deno.test("greedy plan balances a real imbalance fully despite minImprovement", () => {
  const random = seededRandom(12);
  const loads = Float64Array.from({ length: 1_100 }, () => 0.9 + 0.2 * random());
  // An 11th executor joined empty: a gap of the whole mean.
  const input = makeInput(1_100, 11, roundRobin(1_100, 10), loads);
  const plan = greedyLoadBalancer.plan(input, { maxMoves: 1_000, minImprovement: 0.1 });
  const load = new Float64Array(11);
  for (let s = 0; s < 1_100; s++) load[plan[s]!]! += loads[s]!;
  const mean = load.reduce((a, b) => a + b) / 11;
  assert.ok(Math.max(...load) / mean < 1.03, `max/mean ${Math.max(...load) / mean}`);
  assert.ok(countMoves(input.owners, plan) <= 110);
});

Deno.test("greedy plan refuses a negative minImprovement", () => {
  assert.throws(
    () => greedyLoadBalancer.plan(makeInput(2, 2), { maxMoves: 1, minImprovement: -1 }),
    RangeError,
  );
});
