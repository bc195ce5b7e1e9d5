/**
 * Measuring how many executors owner sets share.
 *
 * @module
 */
import { countOverlap, type OverlapCount } from "./_overlap.ts";

/** The overlap of an assignment. */
export type OverlapReport = OverlapCount;

/**
 * Options of {@linkcode measureOverlap}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { MeasureOverlapOptions } from "./overlap.ts";
 *
 * const options: MeasureOverlapOptions = { bound: 2 };
 * assert.equal(options.bound, 2);
 * ```
 */
export interface MeasureOverlapOptions {
  /**
   * Count the shards sharing more than this many executors with another.
   * @default {Infinity} (none are counted)
   */
  readonly bound?: number;
}

/**
 * The exact largest number of executors that two shards' owner sets share,
 * and how many shards exceed `bound`. Repeated ids within a set count once.
 * Cost: about the smaller of Σ 2^|set| and Σ (shards per executor)².
 *
 * @example Route 53's rule: shards of four sharing at most two
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureOverlap } from "./overlap.ts";
 *
 * const report = measureOverlap([["a", "b", "c", "d"], ["a", "b", "e", "f"], ["c", "e", "g", "h"]], {
 *   bound: 2,
 * });
 * assert.deepEqual(report, { maxOverlap: 2, shardsOverBound: 0 });
 * ```
 */
export function measureOverlap(
  ownerSets: readonly (readonly string[])[],
  options: MeasureOverlapOptions = {},
): OverlapReport {
  const { bound = Infinity } = options;
  if (!(bound === Infinity || (Number.isInteger(bound) && bound >= 0))) {
    throw new RangeError(
      `Cannot measure overlap: bound must be a non-negative integer, received ${bound}`,
    );
  }
  const ids = new Map<string, number>();
  const sets = ownerSets.map((set) =>
    Int32Array.from(new Set(set), (id) => {
      let e = ids.get(id);
      if (e === undefined) ids.set(id, e = ids.size);
      return e;
    })
  );
  return countOverlap(sets, ids.size, bound);
}
