import assert from "node:assert/strict";
import { combinations, overlapPackingBound } from "./combinations.ts";

Deno.test("combinations gives the seed's counts: 28 shards of 2 from 8, 730,862,190,080 of 4 from 2,048", () => {
  assert.equal(combinations(8, 2), 28n);
  assert.equal(combinations(2048, 4), 730_862_190_080n);
});

Deno.test("combinations agrees with Pascal's triangle and its edge cases", () => {
  const row: bigint[][] = [[1n]];
  for (let n = 1; n <= 40; n++) {
    row[n] = Array.from(
      { length: n + 1 },
      (_, k) => (row[n - 1]![k - 1] ?? 0n) + (row[n - 1]![k] ?? 0n),
    );
  }
  for (let n = 0; n <= 40; n++) {
    for (let k = 0; k <= n + 1; k++) assert.equal(combinations(n, k), row[n]![k] ?? 0n);
  }
  assert.equal(combinations(100, 50), 100891344545564193334812497256n);
  assert.throws(() => combinations(-1, 0), RangeError);
  assert.throws(() => combinations(4, 1.5), RangeError);
});

Deno.test("overlapPackingBound caps the shards that can keep the bound", () => {
  assert.equal(overlapPackingBound(8, 2, 1), 28n);
  assert.equal(overlapPackingBound(8, 2, 0), 4n);
  assert.equal(overlapPackingBound(7, 3, 1), 7n);
  assert.equal(overlapPackingBound(2048, 4, 2), 357_389_824n);
  assert.equal(overlapPackingBound(5, 3, 3), undefined);
});
