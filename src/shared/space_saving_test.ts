import assert from "node:assert/strict";
import fc from "fast-check";
import { SpaceSaving } from "./space_saving.ts";

type Stream = [string, number][];
const stream: fc.Arbitrary<Stream> = fc.array(
  fc.tuple(fc.constantFrom(..."abcdefghijklmnop"), fc.integer({ min: 0, max: 20 })),
  { maxLength: 200 },
);

function sketchOf(capacity: number, items: Stream): SpaceSaving {
  const sketch = new SpaceSaving(capacity);
  for (const [key, weight] of items) sketch.offer(key, weight);
  return sketch;
}

function exact(items: Stream): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [key, weight] of items) counts.set(key, (counts.get(key) ?? 0) + weight);
  return counts;
}

/** The Space-Saving bounds hold for every key of `items`. */
function assertBounds(sketch: SpaceSaving, items: Stream): void {
  const truth = exact(items);
  assert.ok(sketch.size <= sketch.capacity);
  assert.equal(sketch.total, [...truth.values()].reduce((a, b) => a + b, 0));
  for (const [key, weight] of truth) {
    const kept = sketch.estimate(key);
    if (kept === undefined) {
      assert.ok(weight <= sketch.floor, `${key}: ${weight} > ${sketch.floor}`);
    } else assert.ok(kept.count - kept.error <= weight && weight <= kept.count, key);
  }
}

Deno.test("every key's weight lies within the sketch's bounds", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 8 }), stream, (capacity, items) => {
      assertBounds(sketchOf(capacity, items), items);
    }),
    { numRuns: 500 },
  );
});

Deno.test("a merged sketch bounds the combined stream, whichever side is fuller", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 8 }), stream, stream, (capacity, left, right) => {
      const merged = sketchOf(capacity, left).merge(sketchOf(capacity, right));
      assertBounds(merged, [...left, ...right]);
    }),
    { numRuns: 500 },
  );
});

Deno.test("a key heavier than total / capacity is always kept", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 8 }), stream, (capacity, items) => {
      const sketch = sketchOf(capacity, items);
      for (const [key, weight] of exact(items)) {
        if (weight > sketch.total / capacity) assert.ok(sketch.estimate(key), key);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("the sketch is deterministic and top() orders by count, then key", () => {
  const items: Stream = [["b", 2], ["a", 2], ["c", 5], ["d", 1]];
  const a = sketchOf(3, items), b = sketchOf(3, items);
  assert.deepEqual(a.top(), b.top());
  assert.deepEqual(a.top().map((h) => h.key), ["c", "d", "a"]);
  assert.deepEqual(a.estimate("d"), { key: "d", count: 3, error: 2 });
});

Deno.test("bad capacities, weights and entries are refused with the value", () => {
  assert.throws(() => new SpaceSaving(0), /capacity from 1 to 4096, got 0/);
  assert.throws(() => new SpaceSaving(2).offer("a", -1), /weight of 0 or more, got -1/);
  assert.throws(() => new SpaceSaving(2).offer("a", NaN), /got NaN/);
  assert.throws(
    () => SpaceSaving.from(2, [{ key: "a", count: 1, error: 2 }], 1),
    /Invalid sketch entry/,
  );
});
