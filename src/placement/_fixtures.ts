/**
 * Helpers for the placement tests and benchmarks: random inputs and
 * independent (brute-force) checks of the invariants. Not part of the public
 * API.
 *
 * @module
 */
import { prng, randomBelow } from "./_prng.ts";
import type { PlacementExecutor } from "./types.ts";

export { prng, randomBelow };

/**
 * `count` executors `e0..` spread over `zones` zones `z0..` (round robin),
 * or without zones when `zones` is 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeExecutors } from "./_fixtures.ts";
 *
 * assert.deepEqual(makeExecutors(2, 2).map((e) => e.metadata?.zone), ["z0", "z1"]);
 * ```
 */
export function makeExecutors(count: number, zones: number): PlacementExecutor[] {
  return Array.from(
    { length: count },
    (_, i) => zones === 0 ? { id: `e${i}` } : { id: `e${i}`, metadata: { zone: `z${i % zones}` } },
  );
}

/**
 * Executors in random zones of random sizes (1 to `maxZones` zones).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prng, randomExecutors } from "./_fixtures.ts";
 *
 * assert.equal(randomExecutors(prng(1), 5, 3).length, 5);
 * ```
 */
export function randomExecutors(
  random: () => number,
  count: number,
  maxZones: number,
): PlacementExecutor[] {
  const zones = 1 + randomBelow(random, maxZones);
  const skew = random() < 0.5;
  return Array.from({ length: count }, (_, i) => {
    const z = skew ? Math.floor(Math.pow(random(), 2) * zones) : randomBelow(random, zones);
    return { id: `e${i}`, metadata: { zone: `z${z}` } };
  });
}

/**
 * `count` shard keys `s0..`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeShards } from "./_fixtures.ts";
 *
 * assert.deepEqual(makeShards(2), ["s0", "s1"]);
 * ```
 */
export function makeShards(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `s${i}`);
}

/**
 * Zone of each executor id ("" without one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeExecutors, zonesOf } from "./_fixtures.ts";
 *
 * assert.equal(zonesOf(makeExecutors(1, 1)).get("e0"), "z0");
 * ```
 */
export function zonesOf(executors: readonly PlacementExecutor[]): Map<string, string> {
  return new Map(executors.map((e) => [e.id, e.metadata?.zone ?? ""]));
}

/**
 * The spreading rule, checked directly: a zone may hold two more replicas
 * of the set than another zone only if that other zone has no executor left
 * outside the set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSpread, makeExecutors, zonesOf } from "./_fixtures.ts";
 *
 * const zones = zonesOf(makeExecutors(4, 2));
 * assert.equal(isSpread(["e0", "e1"], zones), true);
 * assert.equal(isSpread(["e0", "e2"], zones), false);
 * ```
 */
export function isSpread(set: readonly string[], zones: ReadonlyMap<string, string>): boolean {
  const size = new Map<string, number>();
  for (const zone of zones.values()) size.set(zone, (size.get(zone) ?? 0) + 1);
  const held = new Map([...size.keys()].map((zone) => [zone, 0]));
  for (const id of set) held.set(zones.get(id)!, held.get(zones.get(id)!)! + 1);
  for (const [y, cy] of held) {
    for (const [z, cz] of held) if (y !== z && cy >= cz + 2 && cz < size.get(z)!) return false;
  }
  return true;
}

/**
 * The largest overlap of two sets and the sets over `bound`, by comparing
 * every pair.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bruteOverlap } from "./_fixtures.ts";
 *
 * assert.deepEqual(bruteOverlap([["a", "b"], ["b", "c"], ["d"]], 0), {
 *   maxOverlap: 1,
 *   shardsOverBound: 2,
 * });
 * ```
 */
export function bruteOverlap(
  sets: readonly (readonly string[])[],
  bound: number,
): { maxOverlap: number; shardsOverBound: number } {
  let maxOverlap = 0;
  const over = new Set<number>();
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      const shared = sets[i]!.filter((id) => sets[j]!.includes(id)).length;
      maxOverlap = Math.max(maxOverlap, shared);
      if (shared > bound) over.add(i).add(j);
    }
  }
  return { maxOverlap, shardsOverBound: over.size };
}

/**
 * Owners per executor id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countsOf } from "./_fixtures.ts";
 *
 * assert.deepEqual(countsOf([["a", "b"], ["a"]], ["a", "b", "c"]), [2, 1, 0]);
 * ```
 */
export function countsOf(sets: readonly (readonly string[])[], ids: readonly string[]): number[] {
  const counts = new Map(ids.map((id) => [id, 0]));
  for (const set of sets) for (const id of set) counts.set(id, counts.get(id)! + 1);
  return ids.map((id) => counts.get(id)!);
}

/**
 * Every k-subset of `items`, in lexicographic order of positions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { subsets } from "./_fixtures.ts";
 *
 * assert.deepEqual(subsets(["a", "b", "c"], 2), [["a", "b"], ["a", "c"], ["b", "c"]]);
 * ```
 */
export function subsets<T>(items: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  const result: T[][] = [];
  items.forEach((item, i) => {
    for (const rest of subsets(items.slice(i + 1), k - 1)) result.push([item, ...rest]);
  });
  return result;
}
