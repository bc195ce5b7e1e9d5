/**
 * Resolves reported loads into the loads a planner balances: NaN (unknown)
 * becomes the mean of the known loads, or 1 when none is known. When every
 * resulting load is equal (including all zero), every load becomes exactly 1,
 * so balancing by load is balancing by count and sums stay exact. Returns a
 * new array; the input is not mutated.
 *
 * @example Unknown loads take the mean of the known ones
 * ```ts
 * import assert from "node:assert/strict";
 * import { effectiveLoads } from "./_loads.ts";
 *
 * assert.deepEqual([...effectiveLoads(Float64Array.of(2, NaN, 4))], [2, 3, 4]);
 * assert.deepEqual([...effectiveLoads(Float64Array.of(0, 0))], [1, 1]);
 * ```
 */
export function effectiveLoads(reported: Float64Array): Float64Array {
  const n = reported.length;
  let known = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const load = reported[i]!;
    if (load === load) {
      known++;
      sum += load;
    }
  }
  const fallback = known === 0 ? 1 : sum / known;
  const loads = new Float64Array(n);
  let uniform = true;
  for (let i = 0; i < n; i++) {
    const load = reported[i]!;
    // `+ 0` turns -0 into 0, so the bits of loads order like the numbers.
    const value = load === load ? load + 0 : fallback;
    loads[i] = value;
    if (value !== loads[0]) uniform = false;
  }
  return uniform ? loads.fill(1) : loads;
}
