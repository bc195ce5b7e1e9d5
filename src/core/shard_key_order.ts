/**
 * The order in which shard keys are listed: decimal keys ("0", "17")
 * numerically and before all others, which are ordered lexically.
 *
 * @module
 */

/**
 * Orders decimal keys ("0", "17") numerically and before all others, which are
 * ordered lexically. A total order, so sorting gives the same result whatever
 * the input order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareShardKeys } from "./shard_key_order.ts";
 *
 * assert.deepEqual(["10", "b", "9", "a"].sort(compareShardKeys), ["9", "10", "a", "b"]);
 * ```
 */
export function compareShardKeys(a: string, b: string): number {
  const da = isCanonicalDecimal(a), db = isCanonicalDecimal(b);
  if (da !== db) return da ? -1 : 1;
  // Canonical decimals of different lengths compare by length, at any size.
  if (da && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True for "0" and decimals without a leading zero; a loop, as sorting calls it n·log n times. */
function isCanonicalDecimal(key: string): boolean {
  const n = key.length;
  if (n === 0) return false;
  const first = key.charCodeAt(0);
  if (first === 48) return n === 1;
  if (first < 49 || first > 57) return false;
  for (let i = 1; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
