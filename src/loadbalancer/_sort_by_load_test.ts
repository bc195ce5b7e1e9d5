import assert from "node:assert/strict";
import { seededRandom } from "./_fixtures.ts";
import { sortByLoad } from "./_sort_by_load.ts";

function reference(items: Int32Array, loads: Float64Array, sign: number): number[] {
  return [...items].sort((a, b) => sign * (loads[a]! - loads[b]!) || 0);
}

Deno.test("sortByLoad matches a stable comparison sort in both directions", () => {
  const random = seededRandom(3);
  for (const size of [0, 1, 5, 47, 48, 1_000, 20_000]) {
    const loads = Float64Array.from(
      { length: size },
      // Mix ties, zeros, tiny and large values.
      () => [0, 1, 2.5, 1e-300, 1e300][Math.floor(random() * 5)]! * Math.floor(random() * 3),
    );
    const items = Int32Array.from({ length: size }, (_, i) => i).filter(() => random() < 0.9);
    assert.deepEqual([...sortByLoad(items, loads, "ascending")], reference(items, loads, 1));
    assert.deepEqual([...sortByLoad(items, loads, "descending")], reference(items, loads, -1));
  }
});

Deno.test("sortByLoad orders uniformly random doubles", () => {
  const random = seededRandom(4);
  const loads = Float64Array.from({ length: 5_000 }, () => random() * 1e6);
  const items = Int32Array.from({ length: 5_000 }, (_, i) => 4_999 - i);
  assert.deepEqual([...sortByLoad(items, loads, "ascending")], reference(items, loads, 1));
});

Deno.test("sortByLoad does not mutate its input", () => {
  const items = Int32Array.of(2, 1, 0);
  sortByLoad(items, Float64Array.of(3, 2, 1), "ascending");
  assert.deepEqual([...items], [2, 1, 0]);
});
