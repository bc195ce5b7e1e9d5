import assert from "node:assert/strict";
import { createContext } from "./_context.ts";
import { makeExecutors, makeShards } from "./_fixtures.ts";
import { FragmentIndex } from "./_fragments.ts";
import { prng } from "./_prng.ts";
import { depthFirstComplete, randomComplete } from "./_set_search.ts";

function context(executors: number, zones: number, width: number) {
  return createContext(
    { shards: makeShards(1), owners: [[]], executors: makeExecutors(executors, zones) },
    width,
    "zone",
  );
}

Deno.test("depthFirstComplete stops at its budget and leaves the set as it was", () => {
  const ctx = context(30, 0, 4);
  const triples = new FragmentIndex(3, 30);
  // Every triple holding executor 0 is taken: a set keeping 0 cannot be completed.
  for (let a = 1; a < 30; a++) for (let b = a + 1; b < 30; b++) triples.addSet([0, a, b]);
  const task = { set: [0], fragments: triples, exclude: -1 };
  assert.equal(depthFirstComplete(ctx, task, 50), "budget");
  assert.deepEqual(task.set, [0]);
  assert.equal(depthFirstComplete(ctx, task, 1_000_000), "none");
  assert.equal(
    depthFirstComplete(ctx, { set: [1], fragments: triples, exclude: -1 }, 100),
    "found",
  );
});

Deno.test("randomComplete never picks the excluded executor and spreads zones", () => {
  const ctx = context(6, 3, 3);
  for (let seed = 0; seed < 50; seed++) {
    const task = { set: [] as number[], fragments: undefined, exclude: 0 };
    assert.ok(randomComplete(ctx, task, prng(seed), 1));
    assert.ok(!task.set.includes(0));
    assert.deepEqual(task.set.map((e) => e % 3).sort(), [0, 1, 2]);
  }
});
