import assert from "node:assert/strict";
import fc from "fast-check";
import { keyHash } from "../../shared/key_hash.ts";
import { type HeldSlice, MAX_REPORTED_KEY_LENGTH, SliceLoads } from "./slice_loads.ts";

const LINE_END = 1n << 64n;
const QUARTER = LINE_END / 4n;

/** Four equal slices ids 0-3; `held` picks which the executor holds. */
function quarters(held: readonly number[], generation = 0): HeldSlice[] {
  return held.map((i) => ({
    id: i,
    start: QUARTER * BigInt(i),
    end: QUARTER * BigInt(i + 1),
    generation,
  }));
}

/** A key whose point falls in quarter `q`. */
function keyIn(q: number, salt = ""): string {
  for (let i = 0;; i++) {
    const key = `k${salt}${i}`;
    if (keyHash(key) / QUARTER === BigInt(q)) return key;
  }
}

Deno.test("a key counts in the held slice whose range holds its hash, and nowhere else", () => {
  const meter = new SliceLoads({}, 0);
  meter.hold(quarters([1, 3]));
  assert.equal(meter.record(keyIn(1), 5), true);
  assert.equal(meter.record(keyIn(3), 7), true);
  assert.equal(meter.record(keyIn(0), 100), false, "not this executor's");
  assert.equal(meter.record(keyIn(2), 100), false, "between two held slices");
  assert.equal(meter.sliceOf(keyIn(3))?.id, 3);
  assert.equal(meter.sliceOf(keyIn(2)), undefined);
  const report = meter.report(1_000);
  assert.deepEqual(report.map((r) => [r.sliceId, r.load]), [[1, 5], [3, 7]]);
});

Deno.test("loads are per second over the window, and each report starts a new window", () => {
  const meter = new SliceLoads({}, 10_000);
  meter.hold(quarters([0]));
  for (let i = 0; i < 40; i++) meter.record(keyIn(0, String(i % 4)));
  assert.equal(meter.report(14_000)[0]?.load, 10, "40 over 4 s");
  assert.equal(meter.report(15_000)[0]?.load, 0, "nothing in the next window");
});

Deno.test("top keys are the heaviest, at most topKeys per slice, by their guaranteed load", () => {
  const meter = new SliceLoads({ topKeys: 2 }, 0);
  meter.hold(quarters([0, 1, 2, 3]));
  const hot = keyIn(2, "hot"), warm = keyIn(2, "warm");
  meter.record(hot, 600);
  meter.record(warm, 200);
  for (let i = 0; i < 50; i++) meter.record(keyIn(2, `cold${i}`), 1);
  const slice = meter.report(1_000).find((r) => r.sliceId === 2)!;
  assert.equal(slice.load, 850);
  assert.deepEqual(slice.topKeys.map((k) => k.key), [hot, warm]);
  assert.ok(slice.topKeys[0]!.load <= 600 && slice.topKeys[0]!.load > 500);
});

Deno.test("a key too long to report counts in its slice's load but is not named", () => {
  const meter = new SliceLoads({}, 0);
  meter.hold(quarters([0, 1, 2, 3]));
  const long = "x".repeat(MAX_REPORTED_KEY_LENGTH + 1);
  meter.record(long, 9);
  const [report] = meter.report(1_000).filter((r) => r.load > 0);
  assert.equal(report?.load, 9);
  assert.deepEqual(report?.topKeys, []);
});

Deno.test("a slice kept across hold() keeps its window; a new generation or a new slice starts empty", () => {
  const meter = new SliceLoads({}, 0);
  meter.hold(quarters([0, 1]));
  meter.record(keyIn(0), 4);
  meter.record(keyIn(1), 4);
  // Slice 1 split (generation 1, now half as wide); slice 0 unchanged; slice 3 gained.
  meter.hold([
    ...quarters([0]),
    { id: 1, start: QUARTER, end: QUARTER + QUARTER / 2n, generation: 1 },
    ...quarters([3]),
  ]);
  const loads = meter.report(1_000).map((r) => [r.sliceId, r.generation, r.load]);
  assert.deepEqual(loads, [[0, 0, 4], [1, 1, 0], [3, 0, 0]]);
});

Deno.test("bad slices and options are refused with the reason", () => {
  const meter = new SliceLoads();
  assert.throws(
    () => meter.hold([{ id: 0, start: 5n, end: 5n, generation: 0 }]),
    /Slice 0 has no valid range/,
  );
  assert.throws(
    () => meter.hold([...quarters([0]), { id: 9, start: 10n, end: 20n, generation: 0 }]),
    /Slices 0 and 9 overlap/,
  );
  assert.throws(() => new SliceLoads({ topKeys: 0 }), /topKeys must be an integer from 1 to 32/);
  assert.throws(() => new SliceLoads({ topKeys: 4, sketchCapacity: 2 }), /sketchCapacity/);
  assert.throws(() => meter.record("k", -1), /finite load of 0 or more/);
});

Deno.test("property: a key is counted exactly when a held slice's range holds its hash", () => {
  fc.assert(fc.property(
    fc.uniqueArray(fc.bigInt({ min: 1n, max: LINE_END - 1n }), { minLength: 1, maxLength: 12 }),
    fc.array(fc.boolean(), { minLength: 13, maxLength: 13 }),
    fc.array(fc.string(), { minLength: 1, maxLength: 30 }),
    (cuts, heldFlags, keys) => {
      const points = [0n, ...cuts.sort((a, b) => (a < b ? -1 : 1)), LINE_END];
      const all = points.slice(1).map((end, i): HeldSlice => ({
        id: i,
        start: points[i]!,
        end,
        generation: 0,
      }));
      const held = all.filter((_, i) => heldFlags[i]);
      const meter = new SliceLoads({}, 0);
      meter.hold(held);
      for (const key of keys) {
        const point = keyHash(key);
        const owner = held.find((s) => s.start <= point && point < s.end);
        assert.equal(meter.sliceOf(key)?.id, owner?.id);
        assert.equal(meter.record(key), owner !== undefined);
      }
    },
  ));
});
