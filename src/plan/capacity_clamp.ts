/**
 * The most shards one executor may be given. An executor reports every shard
 * it runs in each heartbeat, and a heartbeat with more reports than
 * `limits.maxShardReportsPerHeartbeat` is refused, so an executor given more
 * than that could no longer heartbeat. A pass therefore never gives an
 * executor shards beyond the cap: what the load balancer planned past it stays
 * where it was (unowned shards stay unowned until another executor has room).
 * An executor already above the cap (the limit was lowered) keeps its shards
 * until balancing moves them.
 *
 * @module
 */

/**
 * Undoes, in place, what `planned` gives an executor past `cap` shards:
 * such a shard keeps its owner in `before` (-1: none). Returns how many
 * shards stayed unowned because of the cap.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clampToCapacity } from "./capacity_clamp.ts";
 *
 * // Three unowned shards, one executor, room for two.
 * const planned = Int32Array.of(0, 0, 0);
 * assert.equal(clampToCapacity(planned, Int32Array.of(-1, -1, -1), 1, 2), 1);
 * assert.deepEqual([...planned], [0, 0, -1]);
 * ```
 */
export function clampToCapacity(
  planned: Int32Array,
  before: Int32Array,
  executors: number,
  cap: number,
): number {
  const counts = new Int32Array(executors);
  for (const owner of planned) if (owner >= 0) counts[owner]!++;
  if (!counts.some((count) => count > cap)) return 0;
  let left = 0;
  for (let i = planned.length - 1; i >= 0; i--) {
    const target = planned[i]!;
    if (target < 0 || counts[target]! <= cap || before[i] === target) continue;
    counts[target]!--;
    const previous = before[i]!;
    planned[i] = previous;
    if (previous >= 0) counts[previous]!++;
    else left++;
  }
  return left;
}
