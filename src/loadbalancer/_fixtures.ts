/**
 * Deterministic inputs for the load-balancer tests and benchmarks. Not part of
 * the public API.
 *
 * @module
 */
import type { BalanceInput } from "./types.ts";

/**
 * A seeded pseudo-random generator (mulberry32) returning numbers in [0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seededRandom } from "./_fixtures.ts";
 *
 * assert.equal(seededRandom(7)(), seededRandom(7)());
 * ```
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Zipf-distributed shard loads: the shard of rank `r` has load `1 / r^exponent`,
 * and ranks are shuffled over shards.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seededRandom, zipfLoads } from "./_fixtures.ts";
 *
 * const loads = zipfLoads(4, 1, seededRandom(1));
 * assert.deepEqual([...loads].sort((a, b) => b - a), [1, 1 / 2, 1 / 3, 1 / 4]);
 * ```
 */
export function zipfLoads(shards: number, exponent: number, random: () => number): Float64Array {
  const loads = new Float64Array(shards);
  for (let i = 0; i < shards; i++) loads[i] = 1 / Math.pow(i + 1, exponent);
  for (let i = shards - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const swap = loads[i]!;
    loads[i] = loads[j]!;
    loads[j] = swap;
  }
  return loads;
}

/**
 * Builds an input with `shard-<i>` and `executor-<i>` names. Owners default to
 * all unowned and loads to all unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeInput } from "./_fixtures.ts";
 *
 * const input = makeInput(3, 2);
 * assert.deepEqual([...input.owners], [-1, -1, -1]);
 * assert.deepEqual(input.executors, ["executor-0", "executor-1"]);
 * ```
 */
export function makeInput(
  shards: number,
  executors: number,
  owners: Int32Array = new Int32Array(shards).fill(-1),
  loads: Float64Array = new Float64Array(shards).fill(NaN),
): BalanceInput {
  return {
    shards: Array.from({ length: shards }, (_, i) => `shard-${i}`),
    owners,
    loads,
    executors: Array.from({ length: executors }, (_, i) => `executor-${i}`),
  };
}

/**
 * Owners that deal shards round-robin over `executors` (a balanced assignment).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { roundRobin } from "./_fixtures.ts";
 *
 * assert.deepEqual([...roundRobin(5, 2)], [0, 1, 0, 1, 0]);
 * ```
 */
export function roundRobin(shards: number, executors: number): Int32Array {
  const owners = new Int32Array(shards);
  for (let i = 0; i < shards; i++) owners[i] = i % executors;
  return owners;
}

/**
 * Number of shards per executor; -1 owners are not counted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardCounts } from "./_fixtures.ts";
 *
 * assert.deepEqual(shardCounts(Int32Array.of(1, 1, -1), 2), [0, 2]);
 * ```
 */
export function shardCounts(owners: Int32Array, executors: number): number[] {
  const counts = new Array<number>(executors).fill(0);
  for (const owner of owners) if (owner >= 0) counts[owner]!++;
  return counts;
}

/**
 * Total load per executor; -1 owners are not counted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { executorLoads } from "./_fixtures.ts";
 *
 * assert.deepEqual(executorLoads(Int32Array.of(0, 0, 1), Float64Array.of(1, 2, 4), 2), [3, 4]);
 * ```
 */
export function executorLoads(
  owners: Int32Array,
  loads: Float64Array,
  executors: number,
): number[] {
  const totals = new Array<number>(executors).fill(0);
  owners.forEach((owner, shard) => {
    if (owner >= 0) totals[owner]! += loads[shard]!;
  });
  return totals;
}
