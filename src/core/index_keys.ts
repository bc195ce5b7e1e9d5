/**
 * One string per shard number, shared by the whole process: the keys "0",
 * "1", … of fixed namespaces.
 *
 * Why one: V8 hashes a string that reads as an array index ("0".."4294967294")
 * by its value, so a million of them in V8's string table (every string used
 * as a `Map` key is put there) fill one run of consecutive slots, and every
 * later lookup of a string that lands in that run probes to its end. Measured
 * on Deno 2.9.3 (bench/tools/string_table_probe.ts): `JSON.parse` of a
 * 1,000,000-shard assignment takes 90 ms in an empty process and 1.2–1.6 s
 * once a `Map` holds the keys "0".."999999", and putting freshly made key
 * strings into a `Map` costs as much again. Reusing the strings already in
 * that table costs no lookup at all; {@linkcode indexKey} hands them out.
 *
 * @module
 */

let keys: string[] = [];
/** The last shorter prefix handed out, so that asking again gives the same array. */
let prefix: readonly string[] = [];

/**
 * The shared keys "0".."n-1" (the array is shared too: never modify it; the
 * same array for the same `n` until another `n` is asked for). Building them
 * makes {@linkcode indexKey} return them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexKeys } from "./index_keys.ts";
 *
 * assert.deepEqual(indexKeys(3), ["0", "1", "2"]);
 * assert.equal(indexKeys(3), indexKeys(3));
 * ```
 */
export function indexKeys(n: number): readonly string[] {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a shard count: ${n}`);
  if (keys.length < n) {
    const grown = keys.slice();
    for (let i = grown.length; i < n; i++) grown.push(String(i));
    keys = grown;
  }
  if (keys.length === n) return keys;
  if (prefix.length !== n) prefix = keys.slice(0, n);
  return prefix;
}

/**
 * The shared string for shard number `n` when one was built (see
 * {@linkcode indexKeys}), else `String(n)`: equal either way, only the first
 * costs no new string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexKey, indexKeys } from "./index_keys.ts";
 *
 * const [, one] = indexKeys(2);
 * assert.equal(indexKey(1), one);
 * assert.equal(indexKey(5_000_000_000), "5000000000");
 * ```
 */
export function indexKey(n: number): string {
  return keys[n] ?? String(n);
}
