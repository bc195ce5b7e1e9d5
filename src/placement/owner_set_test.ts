import assert from "node:assert/strict";
import {
  isSpread,
  makeExecutors,
  prng,
  randomBelow,
  randomExecutors,
  zonesOf,
} from "./_fixtures.ts";
import { mix32, stableHash } from "./hash.ts";
import { ownerSet, ownerSetFunction, rendezvousWeight } from "./owner_set.ts";
import { zoneQuota, ZoneTally } from "./_zones.ts";
import type { PlacementExecutor } from "./types.ts";

Deno.test("ownerSet without zones takes the k executors of highest rendezvous weight", () => {
  const ids = ["a", "b", "c", "d", "e"];
  const expected = [...ids]
    .sort((x, y) => rendezvousWeight(9, "key", y) - rendezvousWeight(9, "key", x))
    .slice(0, 3);
  assert.deepEqual(ownerSet(9, "key", ids, 3), expected);
  assert.equal(
    rendezvousWeight(9, "key", "a"),
    mix32(stableHash("key", 9) ^ stableHash("a", 9)),
  );
});

Deno.test("ownerSet gives every executor when there are fewer than k, none when there are none", () => {
  assert.deepEqual(ownerSet(1, "k", ["x", "y"], 3).sort(), ["x", "y"]);
  assert.deepEqual(ownerSet(1, "k", [], 3), []);
  assert.throws(() => ownerSet(1, "k", ["x"], 0), RangeError);
  assert.throws(() => ownerSet(1.5, "k", ["x"], 1), RangeError);
  assert.throws(() => ownerSet(1, "k", ["x", "x"], 1), RangeError);
});

Deno.test("ownerSet reads the zone under the configured key", () => {
  const executors = ["a1", "a2", "a3", "b1"].map((id) => ({ id, metadata: { rack: id[0]! } }));
  for (let i = 0; i < 50; i++) {
    assert.ok(ownerSet(3, `k${i}`, executors, 2, { zoneKey: "rack" }).includes("b1"));
  }
});

Deno.test("ownerSet property: distinct, spread over zones, independent of input order", () => {
  const random = prng(21);
  for (let round = 0; round < 300; round++) {
    const executors = randomExecutors(random, 1 + randomBelow(random, 12), 4);
    const k = 1 + randomBelow(random, 5);
    const key = `tenant-${randomBelow(random, 1e6)}`;
    const set = ownerSet(round, key, executors, k);
    assert.equal(set.length, Math.min(k, executors.length));
    assert.equal(new Set(set).size, set.length);
    assert.ok(isSpread(set, zonesOf(executors)), `${set}`);
    assert.deepEqual(ownerSet(round, key, [...executors].reverse(), k), set);
  }
});

Deno.test("ownerSet property: removing an executor changes only the sets that held it, by one", () => {
  const random = prng(22);
  for (let round = 0; round < 300; round++) {
    const executors = randomExecutors(random, 2 + randomBelow(random, 12), 4);
    const k = 1 + randomBelow(random, 4);
    const key = `tenant-${round}`;
    const before = ownerSet(7, key, executors, k);
    const gone = executors[randomBelow(random, executors.length)]!.id;
    const after = ownerSet(7, key, executors.filter((e) => e.id !== gone), k);
    if (!before.includes(gone)) {
      assert.deepEqual(after, before, `removing ${gone} (not an owner) changed the set`);
    } else {
      const stayed = before.filter((id) => id !== gone);
      assert.deepEqual(after.filter((id) => stayed.includes(id)).sort(), stayed.sort());
      assert.equal(after.length, Math.min(k, executors.length - 1));
    }
  }
});

Deno.test("ownerSet property: adding an executor changes a set only by taking one place in it", () => {
  const random = prng(23);
  for (let round = 0; round < 300; round++) {
    const executors = randomExecutors(random, 1 + randomBelow(random, 12), 4);
    const k = 1 + randomBelow(random, 4);
    const key = `tenant-${round}`;
    const before = ownerSet(7, key, executors, k);
    const added = { id: "newcomer", metadata: { zone: `z${randomBelow(random, 5)}` } };
    const after = ownerSet(7, key, [...executors, added], k);
    const lost = before.filter((id) => !after.includes(id));
    const gained = after.filter((id) => !before.includes(id));
    if (gained.length === 0) assert.deepEqual(after, before);
    else {
      assert.deepEqual(gained, ["newcomer"]);
      assert.ok(lost.length <= 1);
    }
  }
});

Deno.test("ownerSet spreads keys evenly over executors", () => {
  const ids = makeExecutors(16, 0).map((e) => e.id);
  const counts = new Map(ids.map((id) => [id, 0]));
  for (let i = 0; i < 16_000; i++) {
    for (const id of ownerSet(42, `customer-${i}`, ids, 2)) counts.set(id, counts.get(id)! + 1);
  }
  for (const count of counts.values()) assert.ok(count > 1_800 && count < 2_200, `${count}`);
});

/** ownerSet by the definition: rank every executor, then take ranks in order while zones allow. */
function referenceOwnerSet(
  seed: number,
  key: string,
  executors: readonly PlacementExecutor[],
  k: number,
): string[] {
  const zoneOf = (e: PlacementExecutor): string => e.metadata?.zone ?? "";
  const zones = [...new Set(executors.map(zoneOf))].sort();
  const sizes = Int32Array.from(zones, (z) => executors.filter((e) => zoneOf(e) === z).length);
  const width = Math.min(k, executors.length);
  const tally = new ZoneTally(zoneQuota(sizes, width));
  const ranked = [...executors].sort((a, b) =>
    rendezvousWeight(seed, key, b.id) - rendezvousWeight(seed, key, a.id) ||
    (a.id < b.id ? -1 : 1)
  );
  const owners: string[] = [];
  for (const e of ranked) {
    const z = zones.indexOf(zoneOf(e));
    if (owners.length < width && tally.canAdd(z)) {
      tally.add(z);
      owners.push(e.id);
    }
  }
  return owners;
}

Deno.test("ownerSetFunction matches ranking every executor, for many keys and shapes", () => {
  const random = prng(24);
  for (let round = 0; round < 100; round++) {
    const executors = randomExecutors(random, 1 + randomBelow(random, 30), 5);
    const k = 1 + randomBelow(random, 6);
    const ownersOf = ownerSetFunction(round, executors);
    for (let i = 0; i < 10; i++) {
      const key = `k${randomBelow(random, 1e9)}`;
      assert.deepEqual(ownersOf(key, k), referenceOwnerSet(round, key, executors, k));
    }
  }
});
