/**
 * Exact pairwise overlap of owner sets given as executor indices. Not part
 * of the public API (see `overlap.ts`).
 *
 * @module
 */
import { FragmentIndex } from "./_fragments.ts";

/** The largest overlap between two sets, and the sets over a bound. */
export interface OverlapCount {
  /** Most executors shared by any two sets (0 with fewer than two sets). */
  readonly maxOverlap: number;
  /** Sets sharing more than the bound with some other set. */
  readonly shardsOverBound: number;
}

/**
 * Measures overlap exactly. Two methods, the cheaper one is used: fragment
 * records top-down (from the size of the largest set down, stopping at the
 * first size two sets share, each level stopping at its first shared
 * fragment; at most about Σ 2^|set| work), or counting co-owned sets per
 * executor (about Σ owned² work). Sets must not repeat an executor.
 *
 * `boundLevel`, when given, must record the (bound + 1)-fragments of exactly
 * these sets: it answers whether the bound holds in O(1) and which sets break
 * it, so only the levels on one side of the bound are searched.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countOverlap } from "./_overlap.ts";
 *
 * const sets = [Int32Array.of(0, 1, 2), Int32Array.of(1, 2, 3), Int32Array.of(4, 5, 0)];
 * assert.deepEqual(countOverlap(sets, 6, 1), { maxOverlap: 2, shardsOverBound: 2 });
 * ```
 */
export function countOverlap(
  sets: readonly ArrayLike<number>[],
  executors: number,
  bound: number,
  boundLevel?: FragmentIndex,
): OverlapCount {
  let fragmentCost = 0;
  let largest = 0;
  const degree = new Float64Array(executors);
  for (const set of sets) {
    largest = Math.max(largest, set.length);
    fragmentCost += Math.pow(2, Math.min(set.length, 40));
    for (let i = 0; i < set.length; i++) degree[set[i]!]!++;
  }
  const countingCost = degree.reduce((sum, d) => sum + d * d, 0);
  if (boundLevel === undefined && fragmentCost > countingCost) {
    return byCounting(sets, executors, bound);
  }
  const sharesAny = (size: number): boolean => {
    const level = new FragmentIndex(size, executors);
    return sets.some((set) => level.addSet(set));
  };
  const sharing = (level: FragmentIndex): number =>
    sets.filter((set) => level.sharedCounts(set).some((n) => n > 0)).length;
  let top = largest;
  let bottom = 1;
  if (boundLevel !== undefined && boundLevel.shared === 0) top = Math.min(top, bound);
  else if (boundLevel !== undefined) bottom = bound + 1;
  let maxOverlap = boundLevel !== undefined && boundLevel.shared > 0 ? bound + 1 : 0;
  for (let size = top; size >= bottom; size--) {
    if (size === bound + 1 && boundLevel !== undefined) break;
    if (sharesAny(size)) {
      maxOverlap = size;
      break;
    }
  }
  if (maxOverlap <= bound) return { maxOverlap, shardsOverBound: 0 };
  let level = boundLevel;
  if (level === undefined) {
    level = new FragmentIndex(bound + 1, executors);
    for (const set of sets) level.addSet(set);
  }
  return { maxOverlap, shardsOverBound: sharing(level) };
}

function byCounting(
  sets: readonly ArrayLike<number>[],
  executors: number,
  bound: number,
): OverlapCount {
  const start = new Int32Array(executors + 1);
  for (const set of sets) for (let i = 0; i < set.length; i++) start[set[i]! + 1]!++;
  for (let e = 0; e < executors; e++) start[e + 1]! += start[e]!;
  const members = new Int32Array(start[executors]!);
  const fill = start.slice(0, executors);
  sets.forEach((set, s) => {
    for (let i = 0; i < set.length; i++) members[fill[set[i]!]!++] = s;
  });
  const shared = new Int32Array(sets.length);
  const over = new Uint8Array(sets.length);
  const touched: number[] = [];
  let maxOverlap = 0;
  sets.forEach((set, s) => {
    for (let i = 0; i < set.length; i++) {
      const e = set[i]!;
      for (let j = start[e]!; j < start[e + 1]!; j++) {
        const t = members[j]!;
        if (t <= s) continue;
        if (shared[t]!++ === 0) touched.push(t);
        maxOverlap = Math.max(maxOverlap, shared[t]!);
        if (shared[t]! > bound) over[s] = over[t] = 1;
      }
    }
    for (const t of touched) shared[t] = 0;
    touched.length = 0;
  });
  return { maxOverlap, shardsOverBound: over.reduce((sum, v) => sum + v, 0) };
}
