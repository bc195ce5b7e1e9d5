import assert from "node:assert/strict";
import { makeInput, seededRandom, shardCounts, zipfLoads } from "./_fixtures.ts";
import { countMoves } from "./count_moves.ts";
import { naiveLoadBalancer } from "./naive.ts";

const { plan } = naiveLoadBalancer;

Deno.test("naive plan gives unowned shards to the executor with the fewest shards, lowest index first", () => {
  const input = makeInput(5, 3, Int32Array.of(0, -1, 0, -1, -1));
  assert.deepEqual([...plan(input, { maxMoves: 0 })], [0, 1, 0, 2, 1]);
});

Deno.test("naive plan ignores loads", () => {
  const loads = Float64Array.of(100, 1, 1, 1);
  const input = makeInput(4, 2, Int32Array.of(0, 0, 1, 1), loads);
  assert.deepEqual([...plan(input, { maxMoves: 10 })], [0, 0, 1, 1]);
});

Deno.test("naive plan moves shards only from executors above the mean to those below it", () => {
  const owners = Int32Array.of(0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2);
  const after = plan(makeInput(12, 3, owners), { maxMoves: 10 });
  assert.deepEqual(shardCounts(after, 3), [4, 4, 4]);
  owners.forEach((owner, shard) => {
    if (after[shard] !== owner) {
      assert.equal(owner, 0);
      assert.ok(after[shard] === 1 || after[shard] === 2);
    }
  });
  assert.equal(countMoves(owners, after), 3);
});

Deno.test("naive plan moves the fewest shards that balance the counts", () => {
  for (const seed of [1, 2, 3, 4]) {
    const random = seededRandom(seed);
    const executors = 2 + Math.floor(random() * 30);
    const shards = Math.floor(random() * 2_000);
    const owners = Int32Array.from(
      { length: shards },
      () => Math.floor(random() * random() * executors),
    );
    const after = plan(makeInput(shards, executors, owners, zipfLoads(shards, 1, random)), {
      maxMoves: Infinity,
    });
    // Least moves: each executor keeps up to its target, the fullest ones get the ceil.
    const floor = Math.floor(shards / executors);
    const counts = shardCounts(owners, executors).sort((a, b) => b - a);
    const least = counts.reduce(
      (sum, count, i) => sum + Math.max(0, count - floor - (i < shards % executors ? 1 : 0)),
      0,
    );
    assert.equal(countMoves(owners, after), least);
    for (const count of shardCounts(after, executors)) assert.ok(count - floor <= 1);
  }
});
