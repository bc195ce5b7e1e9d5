import assert from "node:assert/strict";
import { prng, randomBelow } from "./_fixtures.ts";
import { LoadIndex } from "./_load_index.ts";

Deno.test("LoadIndex keeps executors sorted by count, overall and per zone, through random changes", () => {
  const random = prng(71);
  const executors = 20;
  const zoneOf = Int32Array.from({ length: executors }, () => randomBelow(random, 3));
  const members = [0, 1, 2].map((z) =>
    Int32Array.from([...zoneOf.keys()].filter((e) => zoneOf[e] === z))
  );
  const counts = Int32Array.from({ length: executors }, () => randomBelow(random, 5));
  const index = new LoadIndex(counts, zoneOf, members);
  for (let step = 0; step < 3_000; step++) {
    const e = randomBelow(random, executors);
    if (index.count(e) > 0 && random() < 0.5) index.remove(e);
    else index.add(e);
    const check = (order: { size: number; at(i: number): number }): void => {
      for (let i = 1; i < order.size; i++) {
        assert.ok(index.count(order.at(i - 1)) <= index.count(order.at(i)));
      }
    };
    check(index.all);
    index.byZone.forEach(check);
    assert.equal(
      new Set(Array.from({ length: executors }, (_, i) => index.all.at(i))).size,
      executors,
    );
    for (let z = 0; z < 3; z++) {
      const total = [...members[z]!].reduce((sum, m) => sum + index.count(m), 0);
      assert.equal(index.zoneTotals[z], total);
    }
  }
  const least = index.count(index.all.at(0));
  assert.equal(index.all.endOf(least), [...index.counts].filter((c) => c === least).length);
});
