/**
 * Balance arithmetic for the quality suite: max/mean load, and a lower bound
 * on the moves any planner needs to bring every executor to at most `ratio`
 * times the mean load.
 *
 * @module
 */
import { executorLoads } from "../../src/loadbalancer/_fixtures.ts";

/**
 * Highest executor load over the mean executor load.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { maxOverMean } from "./balance.ts";
 *
 * assert.equal(maxOverMean(Int32Array.of(0, 1), Float64Array.of(3, 1), 2), 1.5);
 * ```
 */
export function maxOverMean(owners: Int32Array, loads: Float64Array, executors: number): number {
  const totals = executorLoads(owners, loads, executors);
  const sum = totals.reduce((a, b) => a + b, 0);
  return Math.max(...totals) / (sum / executors);
}

/**
 * A lower bound on the moves needed to reach max/mean ≤ `ratio` from
 * `owners`. An executor whose load exceeds `ratio × mean` by `x` must lose
 * shards weighing at least `x` in all (receiving shards only adds to that),
 * and no set of shards smaller than its heaviest `k` can weigh that much, so
 * it loses at least that `k`; each move takes one shard from one executor, so
 * the sum over executors bounds the moves. The mean is fixed: moves do not
 * change the total load.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { movesLowerBound } from "./balance.ts";
 *
 * // Executor 0 holds 3 + 1, executor 1 nothing: mean 2, so executor 0 must shed 2 → one shard (the 3).
 * assert.equal(movesLowerBound(Int32Array.of(0, 0), Float64Array.of(3, 1), 2, 1), 1);
 * ```
 */
export function movesLowerBound(
  owners: Int32Array,
  loads: Float64Array,
  executors: number,
  ratio: number,
): number {
  const totals = executorLoads(owners, loads, executors);
  const limit = ratio * (totals.reduce((a, b) => a + b, 0) / executors);
  const held: number[][] = Array.from({ length: executors }, () => []);
  owners.forEach((owner, shard) => {
    if (owner >= 0 && totals[owner]! > limit) held[owner]!.push(loads[shard]!);
  });
  let moves = 0;
  for (let e = 0; e < executors; e++) {
    let excess = totals[e]! - limit;
    if (excess <= 0) continue;
    const heaviest = held[e]!.sort((a, b) => b - a);
    for (const load of heaviest) {
      if (excess <= 1e-12 * limit) break;
      excess -= load;
      moves++;
    }
  }
  return moves;
}

/**
 * The smallest max/mean any assignment can reach: at least 1, and at least
 * the heaviest shard over the mean (it sits on some executor).
 */
export function bestPossibleRatio(loads: Float64Array, executors: number): number {
  let sum = 0;
  let heaviest = 0;
  for (const load of loads) {
    sum += load;
    heaviest = Math.max(heaviest, load);
  }
  return Math.max(1, heaviest / (sum / executors));
}
