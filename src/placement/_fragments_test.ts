import assert from "node:assert/strict";
import { prng, randomBelow, subsets } from "./_fixtures.ts";
import { FragmentIndex } from "./_fragments.ts";

Deno.test("FragmentIndex agrees with comparing sets directly, with number and string keys", () => {
  const random = prng(81);
  for (const executors of [12, 1 << 20]) {
    const pool = Array.from({ length: 12 }, (_, i) => i * Math.floor(executors / 12));
    const fours = subsets(pool, 4);
    const threes = subsets(pool, 3);
    for (let round = 0; round < 100; round++) {
      const size = 1 + randomBelow(random, 3);
      const index = new FragmentIndex(size, executors);
      const sets: number[][] = [];
      for (let i = 0; i < 6; i++) {
        const set = fours[randomBelow(random, fours.length)]!;
        sets.push(set);
        index.addSet(set);
      }
      if (random() < 0.5) index.removeSet(sets.pop()!);
      const partial = threes[randomBelow(random, threes.length)]!.slice(0, size);
      const e = pool.find((p) => !partial.includes(p))!;
      // A conflict: some registered set holds e and size - 1 items of the partial set.
      const shares = sets.some((set) =>
        set.includes(e) && partial.filter((x) => set.includes(x)).length >= size - 1
      );
      assert.equal(index.conflicts(partial, e), shares);
    }
  }
});

Deno.test("FragmentIndex counts shared fragments as sets come and go", () => {
  const pairs = new FragmentIndex(2, 100);
  assert.equal(pairs.addSet([1, 2, 3]), false);
  assert.equal(pairs.addSet([3, 2, 9]), true);
  assert.equal(pairs.shared, 1);
  pairs.removeSet([1, 2, 3]);
  assert.equal(pairs.shared, 0);
  assert.deepEqual([...pairs.sharedCounts([2, 3, 9])], [0, 0, 0]);
});
