/**
 * Exact combinatorics of shuffle sharding.
 *
 * @module
 */

function checkCount(what: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`Cannot count: ${what} must be a non-negative integer, received ${value}`);
  }
}

/**
 * The number of ways to choose `k` of `n` things, C(n, k), exactly, as a
 * bigint: the number of possible shuffle shards of `k` executors out of `n`.
 * 0n when `k > n`.
 *
 * @throws {RangeError} When `n` or `k` is not a non-negative safe integer.
 *
 * @example The seed's arithmetic
 * ```ts
 * import assert from "node:assert/strict";
 * import { combinations } from "./combinations.ts";
 *
 * assert.equal(combinations(8, 2), 28n);
 * assert.equal(combinations(2048, 4), 730_862_190_080n);
 * ```
 */
export function combinations(n: number, k: number): bigint {
  checkCount("n", n);
  checkCount("k", k);
  if (k > n) return 0n;
  const r = BigInt(Math.min(k, n - k));
  const total = BigInt(n);
  let c = 1n;
  // After step i, c = C(n - r + i, i), an integer, so the division is exact.
  for (let i = 1n; i <= r; i++) c = (c * (total - r + i)) / i;
  return c;
}

/**
 * An upper bound on how many shards of `k` owners out of `executors` can
 * pairwise share at most `maxOverlap` executors: each shard uses
 * C(k, m+1) distinct (m+1)-combinations of the C(executors, m+1) there are,
 * so at most ⌊C(executors, m+1) / C(k, m+1)⌋ shards fit. Beyond it, the
 * bound is infeasible; below it, it may still be (zones and the packing can
 * make it so), which is why the planner reports what it achieved. Returns
 * undefined when `maxOverlap ≥ k`: identical sets are allowed, so any number
 * of shards fits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { overlapPackingBound } from "./combinations.ts";
 *
 * assert.equal(overlapPackingBound(8, 2, 1), 28n);
 * assert.equal(overlapPackingBound(2048, 4, 2), 357_389_824n);
 * assert.equal(overlapPackingBound(8, 2, 2), undefined);
 * ```
 */
export function overlapPackingBound(
  executors: number,
  k: number,
  maxOverlap: number,
): bigint | undefined {
  checkCount("executors", executors);
  checkCount("k", k);
  checkCount("maxOverlap", maxOverlap);
  if (maxOverlap >= k) return undefined;
  return combinations(executors, maxOverlap + 1) / combinations(k, maxOverlap + 1);
}
