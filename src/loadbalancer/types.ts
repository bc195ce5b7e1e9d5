/**
 * Types shared by every load balancer: the input of one balancing pass, its
 * options, and the {@linkcode LoadBalancer} interface that all strategies
 * implement (and that the shared contract suite tests).
 *
 * @module
 */

/**
 * Input of one balancing pass; arrays are index-aligned by shard.
 *
 * @example Two shards, one owned by executor 0 and one unowned
 * ```ts
 * import assert from "node:assert/strict";
 * import type { BalanceInput } from "./types.ts";
 *
 * const input: BalanceInput = {
 *   shards: ["a", "b"],
 *   owners: Int32Array.of(0, -1),
 *   loads: Float64Array.of(1, NaN),
 *   executors: ["exec-1"],
 * };
 * assert.equal(input.owners.length, input.shards.length);
 * ```
 */
export interface BalanceInput {
  /** Shard keys (only shards that must be owned: drained/deleted ones are already removed). */
  readonly shards: readonly string[];
  /** Current owner of each shard as an index into `executors`, or -1 when it has no eligible owner. */
  readonly owners: Int32Array;
  /** Reported load of each shard; NaN means unknown (treat as the mean of the known loads, or 1 if none is known). */
  readonly loads: Float64Array;
  /** Eligible executors (alive, ACTIVE, not drained), in a stable order. May be empty. */
  readonly executors: readonly string[];
  /**
   * Shards that balancing must not move (1), e.g. moved within the shard
   * cooldown. Their load still counts on their owner; an unowned shard is
   * placed whatever its entry. Absent: none.
   */
  readonly pinned?: Uint8Array;
}

/**
 * Options of one balancing pass.
 *
 * @example Allow at most ten balancing moves
 * ```ts
 * import assert from "node:assert/strict";
 * import type { BalanceOptions } from "./types.ts";
 *
 * const options: BalanceOptions = { maxMoves: 10 };
 * assert.equal(options.maxMoves, 10);
 * ```
 */
export interface BalanceOptions {
  /** Most balancing moves (moving an already-owned shard to another executor) per pass. Assigning unowned shards never counts against it. 0 forbids balancing moves; `Infinity` means no limit. */
  readonly maxMoves: number;
  /**
   * Hysteresis of the load-aware balancer: with unequal loads, balancing
   * starts only when the most loaded executor that can give a shard away is
   * above the least loaded one by more than this share of the mean executor
   * load (once started, it balances as far as it would anyway). Noise in
   * reported loads then moves nothing. Equal loads (balancing by count) and
   * the count-based balancer ignore it. @default {0}
   */
  readonly minImprovement?: number;
}

/**
 * A pure planner that decides the owner of every shard.
 *
 * @example A trivial balancer that gives every shard to executor 0
 * ```ts
 * import assert from "node:assert/strict";
 * import type { LoadBalancer } from "./types.ts";
 *
 * const first: LoadBalancer = {
 *   name: "naive",
 *   plan: (input) => new Int32Array(input.shards.length).fill(input.executors.length > 0 ? 0 : -1),
 * };
 * const owners = first.plan(
 *   { shards: ["a"], owners: Int32Array.of(-1), loads: Float64Array.of(NaN), executors: ["x"] },
 *   { maxMoves: 0 },
 * );
 * assert.deepEqual([...owners], [0]);
 * ```
 */
export interface LoadBalancer {
  /** Strategy name, as written in the config. */
  readonly name: "naive" | "greedy";
  /** Returns the new owner index of every shard (a new Int32Array, same length; -1 only if there are no executors). Pure and deterministic: no I/O, no clock, no Math.random. */
  plan(input: BalanceInput, options: BalanceOptions): Int32Array;
}
