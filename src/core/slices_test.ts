import assert from "node:assert/strict";
import fc from "fast-check";
import { coverageProblem, LINE_END, type Slice, SliceMap } from "./slices.ts";
import { decodeSliceMap, encodeSliceMap } from "./slice_map_codec.ts";
import { keyHash } from "../shared/key_hash.ts";

/** The slice holding `point`, by a linear scan (the reference for binary search). */
function scan(slices: readonly Slice[], point: bigint): number {
  return slices.findIndex((s) => s.start <= point && point < s.end);
}

const point = fc.bigInt({ min: 0n, max: LINE_END - 1n });
type Op = { kind: "split" | "merge" | "isolate"; pick: number; at: bigint };
const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom("split" as const, "merge" as const, "isolate" as const),
  pick: fc.nat(),
  at: point,
});

/** Applies `o` where it makes sense (a split point inside the picked slice, a merge with its right neighbour). */
function apply(map: SliceMap, o: Op): SliceMap {
  const i = o.pick % map.size;
  const s = map.slices[i]!;
  if (o.kind === "isolate") return map.isolate(o.at);
  if (o.kind === "merge") {
    const right = map.slices[i + 1];
    return right === undefined ? map : map.merge(s.id, right.id);
  }
  const width = s.end - s.start;
  if (width < 2n) return map;
  return map.split(s.id, s.start + 1n + (o.at % (width - 1n)));
}

Deno.test("splits, merges and isolations keep the line covered exactly once", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 40 }), fc.array(op, { maxLength: 60 }), (n, ops) => {
      let map = SliceMap.initial(n);
      for (const o of ops) {
        const before = map;
        map = apply(map, o);
        assert.equal(coverageProblem(map.slices, map.nextId), undefined);
        assert.ok(map.nextId >= before.nextId);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("every key and point has exactly one slice, found by binary search", () => {
  fc.assert(
    fc.property(
      fc.array(op, { maxLength: 40 }),
      fc.array(point, { maxLength: 30 }),
      fc.array(fc.string(), { maxLength: 30 }),
      (ops, points, keys) => {
        const map = ops.reduce(apply, SliceMap.initial(7));
        for (const p of [...points, 0n, LINE_END - 1n, ...map.slices.map((s) => s.start)]) {
          const holders = map.slices.filter((s) => s.start <= p && p < s.end);
          assert.equal(holders.length, 1);
          assert.equal(map.indexOfPoint(p), scan(map.slices, p));
        }
        for (const key of keys) assert.equal(map.indexOfKey(key), scan(map.slices, keyHash(key)));
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("a split keeps the left id and bumps its generation; a merge keeps the left id", () => {
  const map = SliceMap.initial(2).split(1, (1n << 63n) + 10n);
  assert.deepEqual(map.slices.map((s) => [s.id, s.generation]), [[0, 0], [1, 1], [2, 0]]);
  assert.equal(map.byId(2).end, LINE_END);
  const merged = map.merge(1, 2);
  assert.deepEqual(merged.slices.map((s) => [s.id, s.generation]), [[0, 0], [1, 2]]);
  assert.equal(merged.nextId, 3, "a merged-away id is never given again");
});

Deno.test("isolate makes a single-point slice for a hot key, splitting at most twice", () => {
  const h = keyHash("hot-tenant");
  const map = SliceMap.initial(4).isolate(h);
  const hot = map.slices[map.indexOfKey("hot-tenant")]!;
  assert.deepEqual([hot.start, hot.end], [h, h + 1n]);
  assert.equal(map.size, 6);
  assert.equal(map.isolate(h), map, "isolating an isolated point changes nothing");
  const edge = SliceMap.initial(1).isolate(0n).isolate(LINE_END - 1n);
  assert.deepEqual(edge.slices.map((s) => s.end - s.start), [1n, LINE_END - 2n, 1n]);
});

Deno.test("bad operations and bad maps are refused with what was wrong", () => {
  const map = SliceMap.initial(2);
  assert.throws(() => map.split(0, 0n), /strictly inside/);
  assert.throws(() => map.split(7, 5n), /No slice with id 7/);
  assert.throws(() => map.merge(1, 0), /does not follow slice 1/);
  assert.throws(() => map.indexOfPoint(LINE_END), /Expected a point/);
  assert.throws(() => SliceMap.initial(0), /slice count from 1/);
  const s = (id: number, start: bigint, end: bigint): Slice => ({ id, start, end, generation: 0 });
  assert.throws(() => SliceMap.from([]), /no slices/);
  assert.throws(
    () => SliceMap.from([s(0, 0n, 5n), s(1, 6n, LINE_END)]),
    /starts at 6, expected it at 5/,
  );
  assert.throws(() => SliceMap.from([s(0, 0n, 5n), s(0, 5n, LINE_END)]), /id 0 is used twice/);
  assert.throws(() => SliceMap.from([s(0, 0n, 5n)]), /ends at 5, expected 2\^64/);
  assert.throws(() => SliceMap.from([s(3, 0n, LINE_END)], 2), /expected an integer from 0 to 1/);
});

Deno.test("the binary form round-trips any map and refuses damaged bytes", () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      const map = ops.reduce(apply, SliceMap.initial(5));
      const back = decodeSliceMap(encodeSliceMap(map));
      assert.deepEqual(back.slices, map.slices);
      assert.equal(back.nextId, map.nextId);
    }),
    { numRuns: 200 },
  );
  const bytes = encodeSliceMap(SliceMap.initial(3));
  assert.throws(() => decodeSliceMap(bytes.subarray(0, bytes.length - 1)), /truncated/);
  assert.throws(() => decodeSliceMap(Uint8Array.from([...bytes, 0])), /1 trailing bytes/);
  const reversed = bytes.slice();
  reversed.fill(0, 13, 21); // the second slice starts at 0 too: the first is empty
  assert.throws(() => decodeSliceMap(reversed), /Invalid slice map: slice 0 is empty/);
  assert.throws(() => decodeSliceMap(Uint8Array.from([1, 200, 1, 0])), /cannot fit/);
});
