import assert from "node:assert/strict";
import { bruteOverlap, prng, randomBelow } from "./_fixtures.ts";
import { measureOverlap } from "./overlap.ts";

Deno.test("measureOverlap finds the largest shared part and the shards over the bound", () => {
  const sets = [["a", "b", "c"], ["c", "b", "d"], ["e", "f", "a"], ["g"]];
  assert.deepEqual(measureOverlap(sets, { bound: 1 }), { maxOverlap: 2, shardsOverBound: 2 });
  assert.deepEqual(measureOverlap(sets), { maxOverlap: 2, shardsOverBound: 0 });
  assert.deepEqual(measureOverlap([["a", "a"], ["a"]], { bound: 0 }), {
    maxOverlap: 1,
    shardsOverBound: 2,
  });
  assert.deepEqual(measureOverlap([]), { maxOverlap: 0, shardsOverBound: 0 });
  assert.throws(() => measureOverlap([], { bound: -1 }), RangeError);
});

Deno.test("measureOverlap property: matches comparing every pair, small and large sets", () => {
  const random = prng(41);
  for (let round = 0; round < 200; round++) {
    const executors = 1 + randomBelow(random, 40);
    // Large sets make the per-executor counting method the cheaper one.
    const size = round % 4 === 0 ? 20 + randomBelow(random, 20) : 1 + randomBelow(random, 5);
    const sets = Array.from({ length: randomBelow(random, 30) }, () => [
      ...new Set(Array.from({ length: size }, () => `e${randomBelow(random, executors)}`)),
    ]);
    const bound = randomBelow(random, 4);
    assert.deepEqual(measureOverlap(sets, { bound }), bruteOverlap(sets, bound));
  }
});
