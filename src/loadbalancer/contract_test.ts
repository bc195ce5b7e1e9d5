import assert from "node:assert/strict";
import { makeInput, roundRobin, seededRandom, shardCounts, zipfLoads } from "./_fixtures.ts";
import { countMoves, greedyLoadBalancer, naiveLoadBalancer } from "./mod.ts";
import type { BalanceInput, LoadBalancer } from "./mod.ts";

/** Floor or ceil of the mean, for every executor. */
function assertCountBalanced(owners: Int32Array, executors: number): void {
  const floor = Math.floor(owners.length / executors);
  for (const count of shardCounts(owners, executors)) {
    assert.ok(count === floor || count === floor + 1, `count ${count} is not ${floor} or +1`);
  }
}

/** A random input: some shards unowned, Zipf loads with some unknown. */
function randomInput(seed: number, shards: number, executors: number): BalanceInput {
  const random = seededRandom(seed);
  const owners = new Int32Array(shards);
  for (let i = 0; i < shards; i++) {
    owners[i] = random() < 0.2 ? -1 : Math.floor(random() * executors);
  }
  const loads = zipfLoads(shards, 0.7, random);
  for (let i = 0; i < shards; i += 7) loads[i] = NaN;
  return makeInput(shards, executors, owners, loads);
}

function contract(balancer: LoadBalancer): void {
  const name = balancer.name;

  Deno.test(`${name} plan owns every shard exactly once by a valid executor`, () => {
    for (const seed of [1, 2, 3]) {
      const input = randomInput(seed, 2_000, 17);
      const plan = balancer.plan(input, { maxMoves: 300 });
      assert.ok(plan instanceof Int32Array);
      assert.notEqual(plan, input.owners);
      assert.equal(plan.length, input.shards.length);
      for (const owner of plan) assert.ok(owner >= 0 && owner < 17, `bad owner ${owner}`);
    }
  });

  Deno.test(`${name} plan assigns unowned shards even when maxMoves is 0`, () => {
    const input = randomInput(4, 1_000, 9);
    const plan = balancer.plan(input, { maxMoves: 0 });
    assert.ok(plan.every((owner) => owner >= 0));
    assert.equal(countMoves(input.owners, plan), 0);
  });

  Deno.test(`${name} plan leaves every shard at -1 when there are no executors`, () => {
    const input = makeInput(5, 0);
    assert.deepEqual([...balancer.plan(input, { maxMoves: 10 })], [-1, -1, -1, -1, -1]);
  });

  Deno.test(`${name} plan of no shards is empty`, () => {
    assert.equal(balancer.plan(makeInput(0, 3), { maxMoves: 10 }).length, 0);
  });

  Deno.test(`${name} plan splits 32 equal shards over 3 executors as 10 or 11 each`, () => {
    const fromUnowned = balancer.plan(makeInput(32, 3), { maxMoves: 0 });
    assert.deepEqual(shardCounts(fromUnowned, 3).sort(), [10, 11, 11]);
    const allOnFirst = makeInput(32, 3, new Int32Array(32), new Float64Array(32).fill(3));
    const rebalanced = balancer.plan(allOnFirst, { maxMoves: 100 });
    assert.deepEqual(shardCounts(rebalanced, 3).sort(), [10, 11, 11]);
    assert.equal(countMoves(allOnFirst.owners, rebalanced), 21);
  });

  Deno.test(`${name} plan gives exactly 10 of 10,000 shards to each of 1,000 executors`, () => {
    const plan = balancer.plan(makeInput(10_000, 1_000), { maxMoves: 0 });
    assert.ok(shardCounts(plan, 1_000).every((count) => count === 10));
  });

  Deno.test(`${name} plan balances unknown loads by count`, () => {
    const random = seededRandom(5);
    const owners = Int32Array.from({ length: 500 }, () => Math.floor(random() * random() * 7));
    const plan = balancer.plan(makeInput(500, 7, owners), { maxMoves: Infinity });
    assertCountBalanced(plan, 7);
  });

  Deno.test(`${name} plan moves nothing when the assignment is already balanced`, () => {
    for (const loads of [new Float64Array(1_003).fill(NaN), new Float64Array(1_003).fill(0.1)]) {
      const input = makeInput(1_003, 10, roundRobin(1_003, 10), loads);
      const plan = balancer.plan(input, { maxMoves: Infinity });
      assert.deepEqual(plan, input.owners);
    }
  });

  Deno.test(`${name} plan gives a joining executor its share with the fewest moves`, () => {
    // 1,000 shards on 10 executors; an 11th joins: 90 shards must move to it.
    const input = makeInput(1_000, 11, roundRobin(1_000, 10));
    const plan = balancer.plan(input, { maxMoves: 1_000 });
    assertCountBalanced(plan, 11);
    assert.equal(shardCounts(plan, 11)[10], 90);
    assert.equal(countMoves(input.owners, plan), 90);
  });

  Deno.test(`${name} plan spreads the shards of a removed executor over the rest`, () => {
    const owners = roundRobin(100, 4).map((owner) => owner === 3 ? -1 : owner);
    const plan = balancer.plan(makeInput(100, 3, owners), { maxMoves: 0 });
    assert.deepEqual(shardCounts(plan, 3), [34, 33, 33]);
    assert.equal(countMoves(owners, plan), 0);
  });

  Deno.test(`${name} plan makes at most maxMoves balancing moves`, () => {
    const join = makeInput(1_000, 11, roundRobin(1_000, 10));
    const plan = balancer.plan(join, { maxMoves: 5 });
    assert.equal(countMoves(join.owners, plan), 5);
    assert.equal(shardCounts(plan, 11)[10], 5);
    for (const maxMoves of [0, 1, 10, 100]) {
      const input = randomInput(6, 3_000, 13);
      assert.ok(countMoves(input.owners, balancer.plan(input, { maxMoves })) <= maxMoves);
    }
  });

  Deno.test(`${name} plan is deterministic`, () => {
    const input = randomInput(7, 5_000, 31);
    const first = balancer.plan(input, { maxMoves: 400 });
    const second = balancer.plan(input, { maxMoves: 400 });
    assert.deepEqual(first, second);
  });

  Deno.test(`${name} plan does not mutate its input`, () => {
    const input = randomInput(8, 2_000, 11);
    const copy = {
      shards: [...input.shards],
      owners: input.owners.slice(),
      loads: input.loads.slice(),
      executors: [...input.executors],
    };
    balancer.plan(input, { maxMoves: Infinity });
    assert.deepEqual(input, copy);
  });

  Deno.test(`${name} plan rejects invalid input with a RangeError`, () => {
    const valid = makeInput(2, 2, Int32Array.of(0, -1), Float64Array.of(1, NaN));
    for (const maxMoves of [-1, 1.5, NaN]) {
      assert.throws(() => balancer.plan(valid, { maxMoves }), RangeError);
    }
    const invalid: BalanceInput[] = [
      { ...valid, owners: Int32Array.of(0, 2) },
      { ...valid, owners: Int32Array.of(0, -2) },
      { ...valid, owners: Int32Array.of(0) },
      { ...valid, loads: Float64Array.of(1, -1) },
      { ...valid, loads: Float64Array.of(Infinity, 1) },
    ];
    for (const input of invalid) {
      assert.throws(() => balancer.plan(input, { maxMoves: 1 }), RangeError);
    }
  });
}

contract(naiveLoadBalancer);
contract(greedyLoadBalancer);
