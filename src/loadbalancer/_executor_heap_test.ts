import assert from "node:assert/strict";
import { ExecutorHeap } from "./_executor_heap.ts";
import { seededRandom } from "./_fixtures.ts";

function bestByScan(
  primary: Float64Array,
  secondary: Float64Array,
  sign: number,
  live: Set<number>,
) {
  let best = -1;
  for (const e of [...live].sort((a, b) => a - b)) {
    if (
      best < 0 || sign * primary[e]! < sign * primary[best]! ||
      (primary[e] === primary[best] && sign * secondary[e]! < sign * secondary[best]!)
    ) best = e;
  }
  return best;
}

for (const order of ["min", "max"] as const) {
  Deno.test(`ExecutorHeap (${order}) agrees with a linear scan through updates and removals`, () => {
    const random = seededRandom(order === "min" ? 1 : 2);
    const primary = Float64Array.from({ length: 64 }, () => Math.floor(random() * 5));
    const secondary = Float64Array.from({ length: 64 }, () => Math.floor(random() * 3));
    const heap = ExecutorHeap.of(primary, secondary, order);
    const live = new Set(primary.keys());
    const sign = order === "min" ? 1 : -1;
    for (let step = 0; step < 2_000; step++) {
      const e = Math.floor(random() * 64);
      const action = random();
      if (action < 0.1) {
        heap.remove(e);
        live.delete(e);
      } else if (action < 0.2 && !heap.has(e)) {
        heap.push(e);
        live.add(e);
      } else {
        primary[e] = Math.floor(random() * 5);
        secondary[e] = Math.floor(random() * 3);
        heap.update(e);
      }
      assert.equal(heap.size, live.size);
      assert.equal(heap.peek(), bestByScan(primary, secondary, sign, live));
    }
  });
}
