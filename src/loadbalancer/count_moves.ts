/**
 * Counts the balancing moves between two assignments: shards that had an
 * owner in `before` and have a different one in `after`. Assigning a shard
 * that had no owner (-1) is not a move.
 *
 * @throws {RangeError} When the arrays have different lengths.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countMoves } from "./count_moves.ts";
 *
 * assert.equal(countMoves(Int32Array.of(0, 0, -1), Int32Array.of(0, 1, 1)), 1);
 * ```
 */
export function countMoves(before: Int32Array, after: Int32Array): number {
  if (before.length !== after.length) {
    throw new RangeError(
      `Cannot count moves: assignments must have the same length, received ${before.length} and ${after.length}`,
    );
  }
  let moves = 0;
  for (let i = 0; i < before.length; i++) {
    const owner = before[i]!;
    if (owner >= 0 && owner !== after[i]!) moves++;
  }
  return moves;
}
