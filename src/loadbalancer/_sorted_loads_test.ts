import assert from "node:assert/strict";
import { seededRandom } from "./_fixtures.ts";
import { SortedLoads } from "./_sorted_loads.ts";

function contents(list: SortedLoads, loads: Float64Array): number[] {
  const all: number[] = [];
  while (list.size > 0) {
    const p = list.best(Infinity, -1);
    all.push(loads[list.shardAt(p)]!);
    list.removeAt(p);
  }
  return all;
}

Deno.test("SortedLoads best picks the load closest to half the gap that still improves", () => {
  const loads = Float64Array.of(0, 1, 2, 4, 7);
  const list = new SortedLoads(Int32Array.of(0, 1, 2, 3, 4), loads);
  assert.equal(list.shardAt(list.best(8, 0)), 3);
  assert.equal(list.shardAt(list.best(5, 0)), 2);
  assert.equal(list.shardAt(list.best(1.5, 0)), 1);
  assert.equal(list.best(1, 0), -1);
  assert.equal(list.best(0, 0), -1);
});

Deno.test("SortedLoads stays sorted through random inserts and removals", () => {
  const random = seededRandom(9);
  const loads = Float64Array.from({ length: 2_000 }, () => Math.floor(random() * 50));
  const list = new SortedLoads(Int32Array.of(), loads);
  const held = new Set<number>();
  for (let shard = 0; shard < 2_000; shard++) {
    list.insert(shard, loads[shard]!);
    held.add(shard);
    if (random() < 0.4) {
      const p = list.best(random() * 100, 0);
      if (p >= 0) {
        held.delete(list.shardAt(p));
        list.removeAt(p);
      }
    }
  }
  assert.equal(list.size, held.size);
  const expected = [...held].map((shard) => loads[shard]!).sort((a, b) => a - b);
  // Draining with an infinite gap takes the heaviest first.
  assert.deepEqual(contents(list, loads), expected.reverse());
});
