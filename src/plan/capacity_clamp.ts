/**
 * The most an executor may be given. Two limits meet here:
 *
 * - the report cap: an executor reports every shard it runs in each
 *   heartbeat, and a heartbeat with more reports than
 *   `limits.maxShardReportsPerHeartbeat` is refused, so an executor given more
 *   than that could no longer heartbeat;
 * - capacity (executor_capacity.ts): shards and load units an executor was
 *   sized for, from the namespace's `executorCapacity` or declared in its
 *   heartbeat, and the mass-loss brake's fair share.
 *
 * A pass never gives an executor shards beyond its limits: what the load
 * balancer planned past them stays where it was, and shards left with no
 * owner go to executors that still have room (fewest shards first); those
 * that fit nowhere stay unowned until an executor has room. An executor
 * already above its limits (a limit was lowered) keeps its shards until
 * balancing moves them.
 *
 * @module
 */

/** Per-executor limits of one pass, by index of the eligible executors. */
export interface ExecutorLimits {
  /** Most shards per executor (`Infinity`: no limit). */
  readonly shards: ArrayLike<number>;
  /** Most load units per executor (`Infinity`: no limit); absent: no load limit. */
  readonly load?: ArrayLike<number>;
}

/**
 * Undoes, in place, what `planned` gives an executor past `cap` shards (one
 * number for every executor, or {@linkcode ExecutorLimits}): such a shard
 * keeps its owner in `before` (-1: none). Shards then left without an owner
 * are placed on executors with room, fewest shards first. Returns how many
 * shards stayed unowned because no executor had room. `loads` is each shard's
 * load (needed with load limits).
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
 *
 * // Two executors, room for 1 and 3 shards: the balancer's even split is undone.
 * const split = Int32Array.of(0, 0, 1, 1);
 * const limits = { shards: [1, 3] };
 * assert.equal(clampToCapacity(split, Int32Array.of(-1, -1, -1, -1), 2, limits), 0);
 * assert.deepEqual([...split], [0, 1, 1, 1]);
 * ```
 */
export function clampToCapacity(
  planned: Int32Array,
  before: Int32Array,
  executors: number,
  cap: number | ExecutorLimits,
  loads?: ArrayLike<number>,
): number {
  const shardCaps = typeof cap === "number" ? undefined : cap.shards;
  const loadCaps = typeof cap === "number" ? undefined : cap.load;
  const shardCap = (e: number) => shardCaps ? shardCaps[e] ?? Infinity : cap as number;
  const loadOf = (i: number) => loads?.[i] ?? 0;
  const counts = new Int32Array(executors);
  const sums = new Float64Array(executors);
  for (let i = 0; i < planned.length; i++) {
    const owner = planned[i]!;
    if (owner >= 0) counts[owner]!++, sums[owner]! += loadOf(i);
  }
  const over = (e: number) =>
    counts[e]! > shardCap(e) || (loadCaps !== undefined && sums[e]! > (loadCaps[e] ?? Infinity));
  let anyOver = false;
  for (let e = 0; e < executors && !anyOver; e++) anyOver = over(e);
  if (!anyOver) return 0;
  // Shards the clamp leaves without an owner; shards the plan left unowned on
  // purpose (a first deploy's wait) are not the clamp's to place.
  const freed: number[] = [];
  for (let i = planned.length - 1; i >= 0; i--) {
    const target = planned[i]!;
    if (target < 0 || before[i] === target || !over(target)) continue;
    counts[target]!--, sums[target]! -= loadOf(i);
    const previous = before[i]!;
    planned[i] = previous;
    if (previous >= 0) counts[previous]!++, sums[previous]! += loadOf(i);
    else freed.push(i);
  }
  return spill(planned, freed, { counts, sums, shardCap, loadCaps, loadOf });
}

/** What {@linkcode spill} reads and updates. */
interface Room {
  readonly counts: Int32Array;
  readonly sums: Float64Array;
  readonly shardCap: (e: number) => number;
  readonly loadCaps: ArrayLike<number> | undefined;
  readonly loadOf: (i: number) => number;
}

/** Places the `freed` shards on executors with room, fewest shards first; returns those left. */
function spill(planned: Int32Array, freed: readonly number[], room: Room): number {
  const { counts, sums, shardCap, loadCaps, loadOf } = room;
  // Executors that may take one more shard; an executor leaves the list once full.
  let roomy: number[] = [];
  for (let e = 0; e < counts.length; e++) if (counts[e]! < shardCap(e)) roomy.push(e);
  let left = 0;
  for (let k = freed.length - 1; k >= 0; k--) {
    const i = freed[k]!;
    let best = -1;
    for (const e of roomy) {
      if (loadCaps !== undefined && sums[e]! + loadOf(i) > (loadCaps[e] ?? Infinity)) continue;
      if (best < 0 || counts[e]! < counts[best]!) best = e;
    }
    if (best < 0) {
      left++;
      continue;
    }
    planned[i] = best;
    counts[best]!++, sums[best]! += loadOf(i);
    if (counts[best]! >= shardCap(best)) roomy = roomy.filter((e) => e !== best);
  }
  return left;
}
