import type { BalanceInput, BalanceOptions } from "./types.ts";

/**
 * Checks one balancing pass up front, so planners can trust their input:
 * aligned arrays, owners that are -1 or a valid executor index, loads that are
 * NaN or finite and non-negative, and a `maxMoves` that is a non-negative
 * integer or `Infinity`. Runs in O(shards).
 *
 * @throws {RangeError} When an array length, owner, load or `maxMoves` is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateBalance } from "./_validate.ts";
 *
 * const input = {
 *   shards: ["a"],
 *   owners: Int32Array.of(3),
 *   loads: Float64Array.of(1),
 *   executors: ["x"],
 * };
 * assert.throws(() => validateBalance(input, { maxMoves: 0 }), RangeError);
 * ```
 */
export function validateBalance(input: BalanceInput, options: BalanceOptions): void {
  const { maxMoves } = options;
  if (!(maxMoves === Infinity || (Number.isInteger(maxMoves) && maxMoves >= 0))) {
    throw new RangeError(
      `Cannot plan: maxMoves must be a non-negative integer or Infinity, received ${maxMoves}`,
    );
  }
  const { minImprovement = 0 } = options;
  if (!(minImprovement >= 0 && minImprovement < Infinity)) {
    throw new RangeError(
      `Cannot plan: minImprovement must be a finite non-negative number, received ${minImprovement}`,
    );
  }
  const { shards, owners, loads, executors } = input;
  const n = shards.length;
  if (input.pinned !== undefined && input.pinned.length !== n) {
    throw new RangeError(
      `Cannot plan: pinned (${input.pinned.length}) must have one entry per shard (${n})`,
    );
  }
  if (owners.length !== n || loads.length !== n) {
    throw new RangeError(
      `Cannot plan: owners (${owners.length}) and loads (${loads.length}) must have one entry per shard (${n})`,
    );
  }
  const e = executors.length;
  for (let i = 0; i < n; i++) {
    const owner = owners[i]!;
    if (owner < -1 || owner >= e) {
      throw new RangeError(
        `Cannot plan: owner of shard "${
          shards[i]
        }" must be -1 or an executor index below ${e}, received ${owner}`,
      );
    }
    const load = loads[i]!;
    if (load < 0 || load === Infinity) {
      throw new RangeError(
        `Cannot plan: load of shard "${
          shards[i]
        }" must be NaN or a finite non-negative number, received ${load}`,
      );
    }
  }
}
