import assert from "node:assert/strict";
import fc from "fast-check";
import { PointIndex } from "./point_index.ts";

const LINE_END = 1n << 64n;

/** The index of the last start at or before `point`, by a linear scan. */
function scan(starts: readonly bigint[], point: bigint): number {
  let found = -1;
  starts.forEach((s, i) => {
    if (s <= point) found = i;
  });
  return found;
}

const point = fc.bigInt({ min: 0n, max: LINE_END - 1n });

Deno.test("property: the index agrees with a linear scan, near starts and anywhere", () => {
  fc.assert(fc.property(
    fc.uniqueArray(point, { minLength: 1, maxLength: 300 }),
    fc.array(point, { maxLength: 50 }),
    (unsorted, probes) => {
      const starts = unsorted.sort((a, b) => (a < b ? -1 : 1));
      const index = new PointIndex(starts);
      const near = starts.flatMap((s) => [s - 1n, s, s + 1n]).filter((p) =>
        p >= 0n && p < LINE_END
      );
      for (const p of [...probes, ...near, 0n, LINE_END - 1n]) {
        assert.equal(index.indexOfPoint(p), scan(starts, p), `point ${p}`);
      }
    },
  ));
});

Deno.test("starts that crowd one bucket, and an empty index", () => {
  const starts = Array.from({ length: 1_000 }, (_, i) => (5n << 60n) + BigInt(i) * 3n);
  const index = new PointIndex(starts);
  assert.equal(index.indexOfPoint(5n << 60n), 0);
  assert.equal(index.indexOfPoint((5n << 60n) + 2_998n), 999);
  assert.equal(index.indexOfPoint((5n << 60n) + 1_500n), 500);
  assert.equal(index.indexOfPoint(0n), -1);
  assert.equal(new PointIndex([]).indexOfPoint(7n), -1);
});

Deno.test("unsorted, repeated or off-line starts and points are refused", () => {
  assert.throws(() => new PointIndex([5n, 5n]), /strictly ascending/);
  assert.throws(() => new PointIndex([5n, 4n]), /strictly ascending/);
  assert.throws(() => new PointIndex([LINE_END]), /strictly ascending/);
  assert.throws(() => new PointIndex([0n]).indexOfPoint(-1n), /from 0 to 2\^64 - 1/);
});
