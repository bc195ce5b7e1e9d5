import assert from "node:assert/strict";
import { executorLoads, makeInput, seededRandom, shardCounts, zipfLoads } from "./_fixtures.ts";
import { countMoves } from "./count_moves.ts";
import { BALANCE_TOLERANCE, greedyLoadBalancer } from "./greedy.ts";

const { plan } = greedyLoadBalancer;

function maxOverMean(loads: number[]): number {
  const mean = loads.reduce((a, b) => a + b, 0) / loads.length;
  return Math.max(...loads) / mean;
}

Deno.test("greedy plan moves the hottest shard off the hottest executor", () => {
  const input = makeInput(4, 2, Int32Array.of(0, 0, 0, 0), Float64Array.of(1, 5, 1, 1));
  const owners = plan(input, { maxMoves: 1 });
  assert.deepEqual([...owners], [0, 1, 0, 0]);
  // More budget changes nothing: no other move lowers the hotter executor.
  assert.deepEqual(plan(input, { maxMoves: 10 }), owners);
});

Deno.test("greedy plan assigns unowned shards heaviest first to the least-loaded executor", () => {
  // Order 5 (s1), 4 (s3), 3 (s2), 1 (s0): 5→e0, 4→e1, 3→e1 (4 < 5), 1→e0 (5 < 7).
  const input = makeInput(4, 2, undefined, Float64Array.of(1, 5, 3, 4));
  assert.deepEqual([...plan(input, { maxMoves: 0 })], [0, 0, 1, 1]);
});

Deno.test("greedy plan breaks load ties by fewest shards, then lowest index", () => {
  // e0: two shards of load 1; e1: one shard of load 2; e2: one shard of load 2.
  const owners = Int32Array.of(0, 0, 1, 2, -1);
  const input = makeInput(5, 3, owners, Float64Array.of(1, 1, 2, 2, 1));
  assert.equal(plan(input, { maxMoves: 0 })[4], 1);
});

Deno.test("greedy plan treats unknown loads as the mean of the known loads", () => {
  // Known mean is 4: order 6 (s0), 4 (s2), 4 (s3), 2 (s1) gives 8 and 8.
  const input = makeInput(4, 2, undefined, Float64Array.of(6, 2, NaN, NaN));
  const owners = plan(input, { maxMoves: 0 });
  assert.deepEqual([...owners], [0, 0, 1, 1]);
});

Deno.test("greedy plan balances all-zero loads by count", () => {
  const input = makeInput(9, 3, new Int32Array(9), new Float64Array(9));
  assert.deepEqual(shardCounts(plan(input, { maxMoves: 9 }), 3), [3, 3, 3]);
});

Deno.test("greedy plan moves nothing when no move lowers the hottest executor", () => {
  const input = makeInput(2, 2, Int32Array.of(0, 1), Float64Array.of(10, 1));
  assert.deepEqual([...plan(input, { maxMoves: 10 })], [0, 1]);
});

Deno.test("greedy plan skips an executor whose shard is too heavy and balances the rest", () => {
  const n = 51;
  const owners = new Int32Array(n).fill(1);
  owners[0] = 0;
  const loads = new Float64Array(n).fill(1);
  loads[0] = 100;
  const after = plan(makeInput(n, 3, owners, loads), { maxMoves: 100 });
  assert.equal(after[0], 0);
  assert.deepEqual(shardCounts(after, 3), [1, 25, 25]);
});

Deno.test("greedy plan keeps the hottest executor within 5% of the mean on Zipf loads", () => {
  const shards = 20_000;
  const executors = 50;
  const random = seededRandom(11);
  const loads = zipfLoads(shards, 0.5, random);
  // Feasible: the heaviest shard (1) is far below the mean executor load (~5.6).
  const fresh = plan(makeInput(shards, executors, undefined, loads), { maxMoves: 0 });
  assert.ok(maxOverMean(executorLoads(fresh, loads, executors)) <= 1.05);

  const owners = Int32Array.from({ length: shards }, () => Math.floor(random() * executors));
  const before = maxOverMean(executorLoads(owners, loads, executors));
  const input = makeInput(shards, executors, owners, loads);
  const after = plan(input, { maxMoves: shards });
  assert.ok(before > 1.05, `the random start is already balanced (${before})`);
  assert.ok(maxOverMean(executorLoads(after, loads, executors)) <= 1.05);
  assert.ok(countMoves(owners, after) < shards / 2);
});

Deno.test("greedy plan never makes the hottest executor hotter", () => {
  const random = seededRandom(12);
  const loads = zipfLoads(3_000, 1, random);
  const owners = Int32Array.from({ length: 3_000 }, () => Math.floor(random() * 20));
  const before = Math.max(...executorLoads(owners, loads, 20));
  for (const maxMoves of [1, 10, 100, 1_000]) {
    const after = plan(makeInput(3_000, 20, owners, loads), { maxMoves });
    assert.ok(Math.max(...executorLoads(after, loads, 20)) <= before);
  }
});

Deno.test("greedy plan moves nothing on an assignment it balanced itself", () => {
  const random = seededRandom(13);
  const loads = zipfLoads(5_000, 0.8, random);
  const owners = Int32Array.from({ length: 5_000 }, () => Math.floor(random() * 40));
  const once = plan(makeInput(5_000, 40, owners, loads), { maxMoves: Infinity });
  const twice = plan(makeInput(5_000, 40, once, loads), { maxMoves: Infinity });
  assert.equal(countMoves(once, twice), 0);
});

Deno.test("greedy plan stops within BALANCE_TOLERANCE of the mean instead of chasing tiny moves", () => {
  const shards = 20_000;
  const executors = 50;
  const loads = zipfLoads(shards, 0.5, seededRandom(3));
  const owners = Int32Array.from({ length: shards }, (_, i) => i % executors);
  const first = plan(makeInput(shards, executors, owners, loads), { maxMoves: shards });
  const moved = first.reduce((n, owner, s) => n + (owner === owners[s] ? 0 : 1), 0);
  const again = plan(makeInput(shards, executors, first, loads), { maxMoves: shards });
  assert.ok(maxOverMean(executorLoads(first, loads, executors)) <= 1 + 2 * BALANCE_TOLERANCE);
  assert.ok(moved < shards / 20, `${moved} moves`);
  assert.deepEqual([...again], [...first], "a balanced enough assignment is left alone");
});
