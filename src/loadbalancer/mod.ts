/**
 * Pure load-balancing planners for the leader's rebalance pass. Each takes
 * the current shard owners, shard loads and eligible executors and returns
 * the new owner of every shard; the caller turns the difference into writes.
 *
 * - {@linkcode naiveLoadBalancer} evens out shard counts.
 * - {@linkcode greedyLoadBalancer} evens out reported load.
 *
 * Both assign every unowned shard, make at most `maxMoves` balancing moves
 * and move nothing when the assignment is already balanced.
 *
 * @example Plan, then count the balancing moves
 * ```ts
 * import assert from "node:assert/strict";
 * import { countMoves, loadBalancerFor } from "./mod.ts";
 *
 * const owners = Int32Array.of(0, 0, 0, -1);
 * const plan = loadBalancerFor("naive").plan({
 *   shards: ["a", "b", "c", "d"],
 *   owners,
 *   loads: new Float64Array(4).fill(NaN),
 *   executors: ["x", "y"],
 * }, { maxMoves: 5 });
 * assert.deepEqual([...plan], [0, 0, 1, 1]);
 * assert.equal(countMoves(owners, plan), 1);
 * ```
 *
 * @module
 */

export type { BalanceInput, BalanceOptions, LoadBalancer } from "./types.ts";
export { naiveLoadBalancer } from "./naive.ts";
export { greedyLoadBalancer } from "./greedy.ts";
export { loadBalancerFor } from "./load_balancer_for.ts";
export { countMoves } from "./count_moves.ts";
