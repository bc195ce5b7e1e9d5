import assert from "node:assert/strict";
import fc from "fast-check";
import { keyHash } from "../../shared/key_hash.ts";
import { KeyRoutes, type SliceRoute, sliceRoute } from "./key_routes.ts";

const LAST = (1n << 64n) - 1n;

Deno.test("property: a key routes to the listed slice whose range holds its hash, or nowhere", () => {
  fc.assert(fc.property(
    fc.uniqueArray(fc.bigInt({ min: 1n, max: LAST }), { minLength: 1, maxLength: 40 }),
    fc.array(fc.boolean(), { minLength: 41, maxLength: 41 }),
    fc.array(fc.string(), { minLength: 1, maxLength: 40 }),
    (cuts, listed, keys) => {
      const points = [0n, ...cuts.sort((a, b) => (a < b ? -1 : 1)), LAST + 1n];
      const slices = points.slice(1).map((end, i): SliceRoute => ({
        sliceKey: String(i),
        firstPoint: points[i]!,
        lastPoint: end - 1n,
        generation: 0,
      })).filter((_, i) => listed[i]);
      const routes = KeyRoutes.of([...slices].reverse()); // any order
      for (const key of keys) {
        const point = keyHash(key);
        const holder = slices.find((s) => s.firstPoint <= point && point <= s.lastPoint);
        assert.equal(routes.sliceKeyOf(key), holder?.sliceKey);
      }
    },
  ));
});

Deno.test("a single slice over the whole line routes every key, the last point included", () => {
  const routes = KeyRoutes.of([
    sliceRoute("0", { firstPoint: "0", lastPoint: String(LAST), generation: 3 }),
  ]);
  assert.equal(routes.size, 1);
  for (const key of ["", "a", "user:42", "ключ"]) assert.equal(routes.sliceKeyOf(key), "0");
  assert.equal(routes.routeOf("x")?.generation, 3);
});

Deno.test("wire ranges that are not ranges, and overlapping slices, are refused", () => {
  assert.throws(
    () => sliceRoute("4", { firstPoint: "10", lastPoint: "9", generation: 0 }),
    /Slice 4 has no valid range \[10, 9\]/,
  );
  assert.throws(
    () => sliceRoute("5", { firstPoint: "0", lastPoint: String(LAST + 1n), generation: 0 }),
    /Slice 5 has no valid range/,
  );
  assert.throws(() =>
    KeyRoutes.of([
      { sliceKey: "1", firstPoint: 0n, lastPoint: 100n, generation: 0 },
      { sliceKey: "2", firstPoint: 100n, lastPoint: 200n, generation: 0 },
    ]), /Slices 1 and 2 overlap/);
  assert.equal(KeyRoutes.of([]).sliceKeyOf("k"), undefined);
});
