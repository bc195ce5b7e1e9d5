import assert from "node:assert/strict";
import {
  bruteOverlap,
  countsOf,
  isSpread,
  makeExecutors,
  makeShards,
  prng,
  randomBelow,
  randomExecutors,
  subsets,
  zonesOf,
} from "./_fixtures.ts";
import { blastRadius } from "./blast_radius.ts";
import { combinations } from "./combinations.ts";
import { planShuffle } from "./shuffle.ts";
import type { OwnerSetInput, PlacementExecutor } from "./types.ts";

const empty = (n: number): string[][] => Array.from({ length: n }, () => []);
const fresh = (n: number, executors: readonly PlacementExecutor[] | string[]): OwnerSetInput => ({
  shards: makeShards(n),
  owners: empty(n),
  executors,
});

Deno.test("planShuffle places the seed's 28 shards of 2 on 8 workers, one per pair, blast radius 1/28", () => {
  const executors = makeExecutors(8, 0);
  const n = Number(combinations(8, 2));
  const plan = planShuffle(fresh(n, executors), { replicas: 2, maxOverlap: 1 });
  assert.equal(plan.maxOverlap, 1);
  assert.equal(plan.shardsOverBound, 0);
  assert.equal(new Set(plan.owners.map((set) => [...set].sort().join())).size, 28);
  assert.deepEqual(countsOf(plan.owners, executors.map((e) => e.id)), Array(8).fill(7));
  const radius = blastRadius(plan.owners, executors);
  assert.equal(radius.pair.maxLost, 1 / 28);
  assert.equal(radius.single.maxLost, 0);
});

Deno.test("planShuffle reports the achieved overlap when the bound is infeasible", () => {
  // Disjoint pairs (maxOverlap 0) on 8 workers: only 4 fit.
  const plan = planShuffle(fresh(6, makeExecutors(8, 0)), { replicas: 2, maxOverlap: 0 });
  assert.equal(plan.maxOverlap, 1);
  assert.deepEqual(
    { maxOverlap: plan.maxOverlap, shardsOverBound: plan.shardsOverBound },
    bruteOverlap(plan.owners, 0),
  );
  assert.ok(plan.shardsOverBound >= 2);
  // More shards than distinct sets: identical sets are unavoidable, and reported.
  const crowded = planShuffle(fresh(12, makeExecutors(4, 0)), { replicas: 3, maxOverlap: 1 });
  assert.equal(crowded.maxOverlap, 3);
  assert.equal(crowded.shardsOverBound, 12);
});

Deno.test("planShuffle finds the Fano plane: 7 triples on 7 executors pairwise sharing one", () => {
  const plan = planShuffle(fresh(7, makeExecutors(7, 0)), { replicas: 3, maxOverlap: 1 });
  assert.equal(plan.maxOverlap, 1);
  assert.deepEqual(bruteOverlap(plan.owners, 1), { maxOverlap: 1, shardsOverBound: 0 });
});

Deno.test("planShuffle keeps Route 53's rule on 2,048 executors: shards of 4 sharing at most 2", () => {
  const executors = makeExecutors(2048, 3);
  const plan = planShuffle(fresh(3_000, executors), { replicas: 4, maxOverlap: 2 });
  assert.equal(plan.maxOverlap, 2);
  assert.equal(plan.shardsOverBound, 0);
  assert.equal(plan.zoneSpreadViolations, 0);
  const counts = countsOf(plan.owners, executors.map((e) => e.id));
  assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, "balanced counts");
});

Deno.test("planShuffle changes nothing when executors join", () => {
  const executors = makeExecutors(16, 2);
  const first = planShuffle(fresh(25, executors), { replicas: 3, maxOverlap: 1 });
  assert.equal(first.maxOverlap, 1);
  const joined = [...executors, ...makeExecutors(20, 2).slice(16)];
  const next = planShuffle({ shards: makeShards(25), owners: first.owners, executors: joined }, {
    replicas: 3,
    maxOverlap: 1,
  });
  assert.deepEqual(next.owners, first.owners);
  assert.equal(next.added + next.removed + next.moves, 0);
  // New shards go to the joined, least-loaded executors.
  const grown = planShuffle(
    { shards: makeShards(29), owners: [...first.owners, ...empty(4)], executors: joined },
    { replicas: 3, maxOverlap: 1 },
  );
  assert.deepEqual(grown.owners.slice(0, 25), first.owners);
  for (const set of grown.owners.slice(25)) {
    assert.ok(set.some((id) => ["e16", "e17", "e18", "e19"].includes(id)), `${set}`);
  }
  assert.equal(grown.maxOverlap, 1);
});

Deno.test("planShuffle repairs sets over the bound within the move budget, and only reports them without one", () => {
  const executors = makeExecutors(10, 0);
  const owners = [["e0", "e1", "e2"], ["e0", "e1", "e2"], ["e0", "e1", "e3"], ["e5", "e6", "e7"]];
  const input = { shards: makeShards(4), owners, executors };
  const stay = planShuffle(input, { replicas: 3, maxOverlap: 1, maxMoves: 0 });
  assert.deepEqual(stay.owners, owners);
  assert.deepEqual([stay.maxOverlap, stay.shardsOverBound], [3, 3]);
  const fixed = planShuffle(input, { replicas: 3, maxOverlap: 1 });
  assert.deepEqual([fixed.maxOverlap, fixed.shardsOverBound], [1, 0]);
  assert.equal(fixed.moves, fixed.added);
  assert.ok(fixed.moves <= 4);
  assert.deepEqual(fixed.owners[3], owners[3]);
});

Deno.test("planShuffle is deterministic for a seed and rejects bad options", () => {
  const input = fresh(50, makeExecutors(20, 2));
  const a = planShuffle(input, { replicas: 3, maxOverlap: 1, seed: 5 });
  assert.deepEqual(planShuffle(input, { replicas: 3, maxOverlap: 1, seed: 5 }).owners, a.owners);
  const reversed = { ...input, executors: [...input.executors].reverse() };
  assert.deepEqual(planShuffle(reversed, { replicas: 3, maxOverlap: 1, seed: 5 }).owners, a.owners);
  assert.throws(() => planShuffle(input, { replicas: 3, maxOverlap: -1 }), RangeError);
  assert.throws(() => planShuffle(input, { replicas: 3, maxOverlap: 1, seed: 0.5 }), RangeError);
  assert.throws(
    () => planShuffle(fresh(1, makeExecutors(30, 0)), { replicas: 20, maxOverlap: 9 }),
    RangeError,
  );
});

/** Whether some set of `width` executors, spread over zones, shares at most `bound` with every set in `others`. */
function existsWithinBound(
  executors: readonly PlacementExecutor[],
  others: readonly (readonly string[])[],
  width: number,
  bound: number,
): boolean {
  const zones = zonesOf(executors);
  return subsets(executors.map((e) => e.id), width).some((set) =>
    isSpread(set, zones) &&
    others.every((other) => other.filter((id) => set.includes(id)).length <= bound)
  );
}

Deno.test("planShuffle property: valid, spread, overlap reported exactly, bound broken only when no set fits", () => {
  const random = prng(3);
  for (let round = 0; round < 120; round++) {
    const executors = randomExecutors(random, 2 + randomBelow(random, 9), 3);
    const k = 1 + randomBelow(random, 4);
    const m = randomBelow(random, k);
    const n = 1 + randomBelow(random, 30);
    const plan = planShuffle(fresh(n, executors), { replicas: k, maxOverlap: m, seed: round });
    const width = Math.min(k, executors.length);
    const zones = zonesOf(executors);
    for (const set of plan.owners) {
      assert.equal(set.length, width);
      assert.equal(new Set(set).size, width);
      assert.ok(isSpread(set, zones), `${set} not spread`);
    }
    assert.equal(plan.zoneSpreadViolations, 0);
    const brute = bruteOverlap(plan.owners, m);
    assert.deepEqual({ maxOverlap: plan.maxOverlap, shardsOverBound: plan.shardsOverBound }, brute);
    // The last shard was placed against all the others: it breaks the bound only if it had to.
    const last = plan.owners[n - 1]!;
    const others = plan.owners.slice(0, n - 1);
    if (others.some((other) => other.filter((id) => last.includes(id)).length > m)) {
      assert.equal(existsWithinBound(executors, others, width, m), false, `round ${round}`);
    }
  }
});

Deno.test("planShuffle property: when executors leave, only their shards change, by one new owner each", () => {
  const random = prng(5);
  for (let round = 0; round < 60; round++) {
    const executors = randomExecutors(random, 12 + randomBelow(random, 20), 3);
    const k = 2 + randomBelow(random, 3);
    const m = k - 1 - randomBelow(random, 2);
    const n = 5 + randomBelow(random, 40);
    const options = { replicas: k, maxOverlap: m, seed: round };
    const first = planShuffle(fresh(n, executors), options);
    const gone = new Set(
      Array.from(
        { length: 1 + randomBelow(random, 2) },
        () => executors[randomBelow(random, executors.length)]!.id,
      ),
    );
    const rest = executors.filter((e) => !gone.has(e.id));
    const next = planShuffle({ shards: makeShards(n), owners: first.owners, executors: rest }, {
      ...options,
      maxMoves: 0,
    });
    next.owners.forEach((set, s) => {
      const before = first.owners[s]!;
      const kept = before.filter((id) => !gone.has(id));
      assert.deepEqual(set.slice(0, kept.length), kept);
      assert.equal(set.length, before.length);
      for (const id of set.slice(kept.length)) assert.ok(!gone.has(id));
    });
    if (first.maxOverlap <= m && next.maxOverlap > m) {
      // A violation may only come from a shard that had to be refilled.
      const brute = bruteOverlap(next.owners, m);
      assert.equal(next.shardsOverBound, brute.shardsOverBound);
    }
  }
});

Deno.test("planShuffle repairs zone spread before the overlap bound", () => {
  // Zone b joined after the sets were made: every set crowds zone a.
  const executors = [
    ...["a1", "a2", "a3", "a4"].map((id) => ({ id, metadata: { zone: "a" } })),
    { id: "b1", metadata: { zone: "b" } },
  ];
  const owners = [["a1", "a2"], ["a3", "a4"], ["a1", "a3"]];
  const plan = planShuffle({ shards: makeShards(3), owners, executors }, {
    replicas: 2,
    maxOverlap: 0,
  });
  assert.equal(plan.zoneSpreadViolations, 0);
  assert.equal(plan.moves, 3);
  for (const set of plan.owners) assert.ok(set.includes("b1"));
  // Spreading forced b1 into every set: the overlap is reported, not hidden.
  assert.deepEqual([plan.maxOverlap, plan.shardsOverBound], [1, 3]);
});
