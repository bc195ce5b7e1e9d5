/**
 * The shards of one executor kept sorted by load (ascending), stored in a
 * window `[lo, hi)` of two typed arrays so that removing or inserting shifts
 * only the shorter side. Used by the greedy balancer to find, by binary
 * search, the shard whose move best narrows the gap between two executors.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SortedLoads } from "./_sorted_loads.ts";
 *
 * const loads = Float64Array.of(1, 3, 6, 2);
 * const list = new SortedLoads(Int32Array.of(0, 1, 2), loads);
 * // Executor loads 10 and 0: moving the shard of load 6 leaves 4 and 6.
 * const best = list.best(10, 0);
 * assert.equal(list.shardAt(best), 2);
 * list.removeAt(best);
 * list.insert(3, 2);
 * assert.equal(list.size, 3);
 * ```
 */
export class SortedLoads {
  #shards: Int32Array;
  #loads: Float64Array;
  #lo: number;
  #hi: number;

  /** `shards` must already be sorted by `loads[shard]`, ascending. */
  constructor(shards: Int32Array, loads: Float64Array) {
    const k = shards.length;
    const pad = (k >> 2) + 4;
    this.#shards = new Int32Array(k + 2 * pad);
    this.#loads = new Float64Array(k + 2 * pad);
    this.#shards.set(shards, pad);
    for (let i = 0; i < k; i++) this.#loads[pad + i] = loads[shards[i]!]!;
    this.#lo = pad;
    this.#hi = pad + k;
  }

  /** Number of shards held. */
  get size(): number {
    return this.#hi - this.#lo;
  }

  /** The shard at position `p`. */
  shardAt(p: number): number {
    return this.#shards[p]!;
  }

  /** The load of the shard at position `p`. */
  loadAt(p: number): number {
    return this.#loads[p]!;
  }

  /**
   * Position of the shard whose move from an executor to another one that
   * has `gap` less load minimises the larger of the two loads afterwards, or
   * -1 when no move lowers it by more than `epsilon`. A load `w` qualifies
   * when `epsilon < w < gap - epsilon`; the best is closest to `gap / 2`
   * (ties: the lighter shard, then the later position).
   */
  best(gap: number, epsilon: number): number {
    const loads = this.#loads;
    let lo = this.#lo;
    let hi = this.#hi;
    const half = gap / 2;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (loads[mid]! <= half) lo = mid + 1;
      else hi = mid;
    }
    const below = lo - 1;
    const above = lo;
    const belowOk = below >= this.#lo && loads[below]! > epsilon;
    const aboveOk = above < this.#hi && loads[above]! < gap - epsilon;
    if (belowOk && (!aboveOk || gap - loads[below]! <= loads[above]!)) return below;
    return aboveOk ? above : -1;
  }

  /** Removes the shard at position `p`. Positions returned earlier become stale. */
  removeAt(p: number): void {
    if (p - this.#lo < this.#hi - 1 - p) {
      this.#shards.copyWithin(this.#lo + 1, this.#lo, p);
      this.#loads.copyWithin(this.#lo + 1, this.#lo, p);
      this.#lo++;
    } else {
      this.#shards.copyWithin(p, p + 1, this.#hi);
      this.#loads.copyWithin(p, p + 1, this.#hi);
      this.#hi--;
    }
  }

  /** Inserts `shard` with `load` after any shard of equal load. */
  insert(shard: number, load: number): void {
    if (this.#lo === 0 && this.#hi === this.#shards.length) this.#grow();
    const loads = this.#loads;
    let lo = this.#lo;
    let hi = this.#hi;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (loads[mid]! <= load) lo = mid + 1;
      else hi = mid;
    }
    let p = lo;
    const leftCheaper = p - this.#lo <= this.#hi - p;
    if (this.#lo > 0 && (leftCheaper || this.#hi === this.#shards.length)) {
      this.#shards.copyWithin(this.#lo - 1, this.#lo, p);
      loads.copyWithin(this.#lo - 1, this.#lo, p);
      this.#lo--;
      p--;
    } else {
      this.#shards.copyWithin(p + 1, p, this.#hi);
      loads.copyWithin(p + 1, p, this.#hi);
      this.#hi++;
    }
    this.#shards[p] = shard;
    loads[p] = load;
  }

  #grow(): void {
    const k = this.size;
    const pad = (k >> 1) + 4;
    const shards = new Int32Array(k + 2 * pad);
    const loads = new Float64Array(k + 2 * pad);
    shards.set(this.#shards.subarray(this.#lo, this.#hi), pad);
    loads.set(this.#loads.subarray(this.#lo, this.#hi), pad);
    this.#shards = shards;
    this.#loads = loads;
    this.#lo = pad;
    this.#hi = pad + k;
  }
}
