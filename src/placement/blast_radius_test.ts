import assert from "node:assert/strict";
import { prng, randomBelow, subsets } from "./_fixtures.ts";
import { blastRadius } from "./blast_radius.ts";
import { combinations } from "./combinations.ts";

const workers = ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"];

Deno.test("blastRadius of the seed's shuffle sharding: 28 shards of 2 on 8 workers, 1/28 per pair", () => {
  const shards = subsets(workers, 2);
  assert.equal(BigInt(shards.length), combinations(8, 2));
  const radius = blastRadius(shards, workers);
  assert.equal(radius.pair.maxLost, 1 / 28);
  assert.equal(radius.pair.meanLost, 1 / 28);
  assert.equal(radius.worstLost, 1 / 28);
  assert.equal(radius.single.maxLost, 0);
  assert.equal(radius.single.maxDegraded, 7 / 28);
  assert.equal(radius.fewestOwners, 2);
});

Deno.test("blastRadius of the seed's regular sharding: 4 shards of 2 workers, a quarter lost", () => {
  const cells = [["w1", "w2"], ["w3", "w4"], ["w5", "w6"], ["w7", "w8"]];
  // Many customers per shard: the share is what matters.
  const customers = Array.from({ length: 100 }, (_, i) => cells[i % 4]!);
  const radius = blastRadius(customers, workers);
  assert.equal(radius.pair.maxLost, 1 / 4);
  assert.deepEqual(radius.pair.worstPair, ["w1", "w2"]);
  // Shuffle sharding is seven times better.
  assert.equal(radius.pair.maxLost / blastRadius(subsets(workers, 2), workers).pair.maxLost, 7);
});

Deno.test("blastRadius of single owners: one failure loses what that executor owns", () => {
  const radius = blastRadius([["a"], ["a"], ["b"], [], ["a", "b"]], ["a", "b", "c"]);
  assert.equal(radius.unowned, 1);
  assert.equal(radius.fewestOwners, 1);
  assert.equal(radius.single.maxLost, 2 / 5);
  assert.equal(radius.single.worstExecutor, "a");
  assert.equal(radius.single.meanLost, 3 / 3 / 5);
  assert.equal(radius.single.maxDegraded, 3 / 5);
  assert.equal(radius.pair.maxLost, 4 / 5);
  assert.deepEqual(radius.pair.worstPair, ["a", "b"]);
  assert.equal(radius.worstLost, 4 / 5);
});

Deno.test("blastRadius counts owners missing from the executor list, and handles empty input", () => {
  assert.equal(blastRadius([["x"]], []).executors, 1);
  const none = blastRadius([], []);
  assert.deepEqual([none.worstLost, none.single.meanLost, none.pair.meanLost], [0, 0, 0]);
  assert.equal(none.single.worstExecutor, undefined);
});

Deno.test("blastRadius property: matches failing every executor and every pair", () => {
  const random = prng(31);
  for (let round = 0; round < 60; round++) {
    const ids = Array.from({ length: 1 + randomBelow(random, 9) }, (_, i) => `e${i}`);
    const sets = Array.from(
      { length: randomBelow(random, 40) },
      () =>
        Array.from({ length: randomBelow(random, 4) }, () => ids[randomBelow(random, ids.length)]!),
    );
    const radius = blastRadius(sets, ids);
    const n = sets.length;
    const lost = (failed: string[]): number =>
      sets.filter((set) => set.length > 0 && set.every((id) => failed.includes(id))).length /
      (n || 1);
    const degraded = (id: string): number =>
      sets.filter((set) => set.includes(id)).length / (n || 1);
    const singles = ids.map((id) => lost([id]));
    const pairs = subsets(ids, 2).map((pair) => lost(pair));
    const close = (a: number, b: number): boolean => Math.abs(a - b) < 1e-12;
    assert.ok(close(radius.single.maxLost, Math.max(...singles)));
    assert.ok(close(radius.single.meanLost, singles.reduce((a, b) => a + b, 0) / ids.length));
    assert.ok(close(radius.single.maxDegraded, Math.max(...ids.map(degraded))));
    assert.ok(close(radius.pair.maxLost, Math.max(0, ...pairs)));
    const meanPair = pairs.length === 0 ? 0 : pairs.reduce((a, b) => a + b, 0) / pairs.length;
    assert.ok(close(radius.pair.meanLost, meanPair), `${radius.pair.meanLost} vs ${meanPair}`);
    if (radius.pair.worstPair) {
      assert.ok(close(lost([...radius.pair.worstPair]), radius.pair.maxLost));
    }
  }
});
