/**
 * Shuffle sharding (`placement: shuffle`, `maxOverlap: m`): owner sets of
 * which any two share at most m executors.
 *
 * @module
 */
import { createContext, report } from "./_context.ts";
import { countOverlap } from "./_overlap.ts";
import { combinations, overlapPackingBound } from "./combinations.ts";
import { ShuffleSearch } from "./_shuffle_search.ts";
import { resolveOptions } from "./_validate.ts";
import type { OwnerSetInput, OwnerSetOptions, ShufflePlan } from "./types.ts";

/** Most (m+1)-combinations per set the search tracks (C(replicas, maxOverlap + 1)). */
const MAX_FRAGMENTS_PER_SET = 4096n;
/** Small instances that break the bound are retried with other seeds, this many runs in all. */
const RESTARTS = 64;
const SMALL_SHARDS = 256;
const SMALL_EXECUTORS = 64;

/**
 * Options of {@linkcode planShuffle}.
 *
 * @example Route 53's shape
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ShuffleOptions } from "./shuffle.ts";
 *
 * const options: ShuffleOptions = { replicas: 4, maxOverlap: 2 };
 * assert.equal(options.maxOverlap, 2);
 * ```
 */
export interface ShuffleOptions extends OwnerSetOptions {
  /** The most executors any two shards may share (m ≥ 0). */
  readonly maxOverlap: number;
  /**
   * Seed of the randomized search (same input and seed, same result).
   * @default {0}
   */
  readonly seed?: number;
}

/**
 * Plans shuffle-sharded owner sets: each shard gets `min(replicas,
 * executors)` distinct owners, spread over zones before anything else, such
 * that two shards share at most `maxOverlap` executors whenever the search
 * can achieve it; otherwise as few as it can, and the plan reports the
 * achieved maximum (`maxOverlap`) and the shards over the bound — it never
 * hides them.
 *
 * The search keeps a record of every (m+1)-combination of executors in use
 * (two sets share more than m executors exactly when they share such a
 * combination), like Route 53's Infima. For a set to fill it tries random
 * picks among the least-loaded executors of the zones spreading asks for,
 * then an exhaustive depth-first search (exact for small cases: it finds a
 * set within the bound whenever one exists given the other sets), then a
 * looser bound (m+1, m+2, …), then no bound. Shards are placed one at a
 * time, so a greedy order can paint itself into a corner: a small instance
 * (≤ 256 shards, ≤ 64 executors, not over {@linkcode overlapPackingBound})
 * that ends over the bound is planned again with up to 63 derived seeds, and
 * the best run is kept.
 *
 * Minimal change: owners still eligible are kept; only shards that lost an
 * owner (or new shards) get new ones, chosen against all other sets.
 * Joining executors take no shards from others, only new placements (they
 * are the least loaded). With a move budget (`maxMoves`, default
 * `Infinity`), shards that break the bound or the zone spread — for example
 * after a period with too few executors — get one owner replaced when that
 * fixes them. Pure and deterministic for a given `seed`.
 *
 * @example Eight workers, shards of two, no two sharing both: all 28 pairs
 * ```ts
 * import assert from "node:assert/strict";
 * import { planShuffle } from "./shuffle.ts";
 *
 * const executors = ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"];
 * const shards = Array.from({ length: 28 }, (_, i) => `customer-${i}`);
 * const plan = planShuffle(
 *   { shards, owners: shards.map(() => []), executors },
 *   { replicas: 2, maxOverlap: 1 },
 * );
 * assert.equal(plan.maxOverlap, 1);
 * assert.equal(new Set(plan.owners.map((set) => set.sort().join())).size, 28);
 *
 * const more = planShuffle(
 *   { shards: [...shards, "one-too-many"], owners: [...plan.owners, []], executors },
 *   { replicas: 2, maxOverlap: 1 },
 * );
 * assert.equal(more.maxOverlap, 2);
 * assert.equal(more.shardsOverBound, 2);
 * ```
 */
export function planShuffle(input: OwnerSetInput, options: ShuffleOptions): ShufflePlan {
  const { replicas, zoneKey, maxMoves } = resolveOptions(input, options);
  const { maxOverlap: bound, seed = 0 } = options;
  if (!Number.isInteger(bound) || bound < 0) {
    throw new RangeError(`Cannot place: maxOverlap must be an integer ≥ 0, received ${bound}`);
  }
  if (!Number.isInteger(seed)) {
    throw new RangeError(`Cannot place: seed must be an integer, received ${seed}`);
  }
  const run = (seed: number): ShufflePlan => {
    const ctx = createContext(input, replicas, zoneKey);
    if (bound < ctx.width && combinations(ctx.width, bound + 1) > MAX_FRAGMENTS_PER_SET) {
      throw new RangeError(
        `Cannot place: replicas ${replicas} with maxOverlap ${bound} gives more than ${MAX_FRAGMENTS_PER_SET} executor combinations per set to track`,
      );
    }
    const search = new ShuffleSearch(ctx, bound, seed);
    for (let s = 0; s < ctx.table.shards; s++) search.complete(s);
    const moves = maxMoves > 0 ? search.repair(maxMoves) : 0;
    const sets = Array.from({ length: ctx.table.shards }, (_, s) => ctx.table.members(s));
    const overlap = countOverlap(sets, ctx.index.ids.length, bound, search.boundLevel);
    return { ...report(ctx, input, replicas, moves), overlapBound: bound, ...overlap };
  };
  let best = run(seed);
  const executors = input.executors.length;
  const limit = overlapPackingBound(executors, Math.min(replicas, executors), bound);
  const small = input.shards.length <= SMALL_SHARDS && executors <= SMALL_EXECUTORS &&
    (limit === undefined || BigInt(input.shards.length) <= limit);
  // Fewest shards over the bound, then the lowest overlap, then the fewest moves.
  const rank = (plan: ShufflePlan): number[] => [plan.shardsOverBound, plan.maxOverlap, plan.moves];
  for (let r = 1; r < RESTARTS && small && best.shardsOverBound > 0; r++) {
    const next = run((seed + r) | 0);
    const [a, b] = [rank(next), rank(best)];
    const first = a.findIndex((v, i) => v !== b[i]);
    if (first >= 0 && a[first]! < b[first]!) best = next;
  }
  return best;
}
