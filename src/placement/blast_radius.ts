/**
 * Blast radius of an assignment: what share of shards executor failures take
 * down.
 *
 * @module
 */
import type { ExecutorLike } from "./types.ts";

/**
 * Shares of shards (fractions of all shards, 0 to 1) hit by executor
 * failures. "Lost" means every owner failed; "degraded" means at least one
 * did. Shards that have no owner at all are counted in `unowned` and in no
 * share.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blastRadius } from "./blast_radius.ts";
 *
 * const radius = blastRadius([["a", "b"]], ["a", "b", "c"]);
 * assert.equal(radius.pair.maxLost, 1);
 * assert.deepEqual(radius.pair.worstPair, ["a", "b"]);
 * ```
 */
export interface BlastRadius {
  /** Shards in the assignment. */
  readonly shards: number;
  /** Executors that may fail: the given ones plus any owner not among them. */
  readonly executors: number;
  /** Shards with no owner (already unavailable). */
  readonly unowned: number;
  /** Fewest owners of an owned shard: the fewest failures that lose a shard (0 if none is owned). */
  readonly fewestOwners: number;
  /** One executor fails, over every executor. */
  readonly single: {
    /** Largest share of shards lost. */
    readonly maxLost: number;
    /** Mean share of shards lost. */
    readonly meanLost: number;
    /** Largest share of shards degraded. */
    readonly maxDegraded: number;
    /** Mean share of shards degraded. */
    readonly meanDegraded: number;
    /** The executor whose failure loses the most (then degrades the most); lowest id on ties. */
    readonly worstExecutor: string | undefined;
  };
  /** Two executors fail together, over every pair (zeros with fewer than two executors). */
  readonly pair: {
    /** Largest share of shards lost. */
    readonly maxLost: number;
    /** Mean share of shards lost. */
    readonly meanLost: number;
    /** A pair whose failure loses `maxLost` (undefined when nothing can be lost). */
    readonly worstPair: readonly [string, string] | undefined;
  };
  /** The worst share lost by one or two failures: max(single.maxLost, pair.maxLost). */
  readonly worstLost: number;
}

/**
 * Measures the blast radius of `ownerSets` (one owner set per shard) when
 * any one or any two of `executors` fail. A pair can only lose shards owned
 * by one of the two alone or by exactly those two, so only pairs that
 * co-own a two-owner shard are visited, plus the two executors that alone
 * own the most: O(Σ set sizes + executors), not O(executors²).
 *
 * @example The seed: 8 workers, every pair a shard, each pair failure loses 1/28
 * ```ts
 * import assert from "node:assert/strict";
 * import { blastRadius } from "./blast_radius.ts";
 *
 * const workers = ["1", "2", "3", "4", "5", "6", "7", "8"];
 * const shards = workers.flatMap((a, i) => workers.slice(i + 1).map((b) => [a, b]));
 * const radius = blastRadius(shards, workers);
 * assert.equal(shards.length, 28);
 * assert.equal(radius.single.maxLost, 0);
 * assert.equal(radius.single.maxDegraded, 7 / 28);
 * assert.equal(radius.pair.maxLost, 1 / 28);
 * assert.equal(radius.pair.meanLost, 1 / 28);
 * ```
 */
export function blastRadius(
  ownerSets: readonly (readonly string[])[],
  executors: readonly ExecutorLike[],
): BlastRadius {
  const named = new Set(executors.map((e) => typeof e === "string" ? e : e.id));
  for (const set of ownerSets) for (const id of set) named.add(id);
  const ids = [...named].sort();
  const index = new Map(ids.map((id, i) => [id, i]));
  const count = ids.length;
  const alone = new Float64Array(count);
  const degree = new Float64Array(count);
  const pairs = new Map<number, number>();
  let unowned = 0;
  let fewestOwners = Infinity;
  for (const set of ownerSets) {
    const owners = [...new Set(set)].map((id) => index.get(id)!).sort((a, b) => a - b);
    if (owners.length === 0) unowned++;
    else fewestOwners = Math.min(fewestOwners, owners.length);
    for (const e of owners) degree[e]!++;
    if (owners.length === 1) alone[owners[0]!]!++;
    if (owners.length === 2) {
      const key = owners[0]! * count + owners[1]!;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
  }
  const n = ownerSets.length;
  const share = (value: number): number => n === 0 ? 0 : value / n;
  const sum = (values: Float64Array): number => values.reduce((total, v) => total + v, 0);

  let worst = -1;
  for (let e = 0; e < count; e++) {
    if (
      worst < 0 || alone[e]! > alone[worst]! ||
      (alone[e] === alone[worst] && degree[e]! > degree[worst]!)
    ) worst = e;
  }
  const single = {
    maxLost: share(worst < 0 ? 0 : alone[worst]!),
    meanLost: count === 0 ? 0 : share(sum(alone) / count),
    maxDegraded: share(degree.reduce((most, d) => Math.max(most, d), 0)),
    meanDegraded: count === 0 ? 0 : share(sum(degree) / count),
    worstExecutor: worst < 0 ? undefined : ids[worst],
  };

  let pairLost = 0;
  let worstPair: [number, number] | undefined;
  if (count >= 2) {
    const [first, second] = [...alone.keys()].sort((a, b) => alone[b]! - alone[a]! || a - b);
    pairLost = alone[first!]! + alone[second!]!;
    if (pairLost > 0) worstPair = [first!, second!];
    for (const [key, together] of pairs) {
      const a = Math.floor(key / count);
      const b = key % count;
      const lost = alone[a]! + alone[b]! + together;
      if (lost > pairLost) [pairLost, worstPair] = [lost, [a, b]];
    }
  }
  const pairTotal = (count - 1) * sum(alone) + [...pairs.values()].reduce((t, v) => t + v, 0);
  const pair = {
    maxLost: share(pairLost),
    meanLost: count < 2 ? 0 : share(pairTotal / (count * (count - 1) / 2)),
    worstPair: worstPair && ([ids[worstPair[0]]!, ids[worstPair[1]]!] as const),
  };
  return {
    shards: n,
    executors: count,
    unowned,
    fewestOwners: fewestOwners === Infinity ? 0 : fewestOwners,
    single,
    pair,
    worstLost: Math.max(single.maxLost, pair.maxLost),
  };
}
