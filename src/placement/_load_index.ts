/**
 * Owner counts per executor with executors kept sorted by count, overall and
 * within each zone, so the least- and most-loaded are found in O(1) and a
 * count changes in O(1). Not part of the public API.
 *
 * @module
 */

/**
 * Executors sorted by count (ascending) in an array split into blocks of equal
 * count; a ±1 change swaps the executor to the edge of its block and moves
 * the block boundary. Ties keep a deterministic, swap-dependent order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CountOrder } from "./_load_index.ts";
 *
 * const counts = Int32Array.of(2, 0, 1);
 * const order = new CountOrder(Int32Array.of(0, 1, 2), counts);
 * assert.equal(order.at(0), 1);
 * order.increment(1, counts[1]!);
 * counts[1]!++;
 * order.increment(1, counts[1]!);
 * counts[1]!++;
 * assert.equal(order.at(0), 2);
 * assert.equal(counts[order.at(2)], 2);
 * ```
 */
export class CountOrder {
  readonly #order: Int32Array;
  readonly #pos: Int32Array;
  /** start[c] = first position whose count is ≥ c (for c beyond the array: size). */
  readonly #start: number[] = [0];

  /**
   * Sorts `members` by `counts`, ties by index. `positions` (one slot per
   * executor) may be shared by orders over disjoint members.
   */
  constructor(members: Int32Array, counts: Int32Array, positions = new Int32Array(counts.length)) {
    const sorted = [...members].sort((a, b) => counts[a]! - counts[b]! || a - b);
    this.#order = Int32Array.from(sorted);
    this.#pos = positions;
    sorted.forEach((e, i) => {
      this.#pos[e] = i;
      const c = counts[e]!;
      while (this.#start.length <= c) this.#start.push(i);
    });
    this.#start.push(sorted.length);
  }

  /** Number of executors. */
  get size(): number {
    return this.#order.length;
  }

  /** The executor at `position` (0 = least loaded). */
  at(position: number): number {
    return this.#order[position]!;
  }

  /** First position whose count is greater than `count`. */
  endOf(count: number): number {
    return count + 1 < this.#start.length ? this.#start[count + 1]! : this.#order.length;
  }

  /** Moves executor `e`, whose count is `count`, up one block (call before incrementing). */
  increment(e: number, count: number): void {
    if (count + 2 >= this.#start.length) {
      while (this.#start.length <= count + 2) this.#start.push(this.#order.length);
    }
    const last = this.#start[count + 1]! - 1;
    this.#swap(this.#pos[e]!, last);
    this.#start[count + 1] = last;
  }

  /** Moves executor `e`, whose count is `count` ≥ 1, down one block (call before decrementing). */
  decrement(e: number, count: number): void {
    const first = this.#start[count]!;
    this.#swap(this.#pos[e]!, first);
    this.#start[count] = first + 1;
  }

  #swap(i: number, j: number): void {
    const a = this.#order[i]!;
    const b = this.#order[j]!;
    this.#order[i] = b;
    this.#order[j] = a;
    this.#pos[b] = i;
    this.#pos[a] = j;
  }
}

/**
 * Owner counts of every executor, ordered overall and per zone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LoadIndex } from "./_load_index.ts";
 *
 * const loads = new LoadIndex(Int32Array.of(1, 0), Int32Array.of(0, 0), [Int32Array.of(0, 1)]);
 * loads.add(1);
 * loads.add(1);
 * assert.equal(loads.all.at(1), 1);
 * assert.equal(loads.count(1), 2);
 * ```
 */
export class LoadIndex {
  /** Owner count of each executor (read only: change it through add/remove). */
  readonly counts: Int32Array;
  /** All executors by count. */
  readonly all: CountOrder;
  /** The executors of each zone by count. */
  readonly byZone: readonly CountOrder[];
  /** Sum of the counts of each zone's executors. */
  readonly zoneTotals: Float64Array;
  readonly #zoneOf: Int32Array;

  /** Indexes `counts` (taken over, not copied). */
  constructor(counts: Int32Array, zoneOf: Int32Array, zoneMembers: readonly Int32Array[]) {
    this.counts = counts;
    this.#zoneOf = zoneOf;
    this.all = new CountOrder(Int32Array.from(counts.keys()), counts);
    this.zoneTotals = new Float64Array(zoneMembers.length);
    counts.forEach((c, e) => this.zoneTotals[zoneOf[e]!]! += c);
    const zonePositions = new Int32Array(counts.length);
    this.byZone = zoneMembers.map((members) => new CountOrder(members, counts, zonePositions));
  }

  /** Owner count of executor `e`. */
  count(e: number): number {
    return this.counts[e]!;
  }

  /** One more owned shard for executor `e`. */
  add(e: number): void {
    const c = this.counts[e]!;
    this.all.increment(e, c);
    this.byZone[this.#zoneOf[e]!]!.increment(e, c);
    this.zoneTotals[this.#zoneOf[e]!]!++;
    this.counts[e] = c + 1;
  }

  /** One owned shard fewer for executor `e`. */
  remove(e: number): void {
    const c = this.counts[e]!;
    this.all.decrement(e, c);
    this.byZone[this.#zoneOf[e]!]!.decrement(e, c);
    this.zoneTotals[this.#zoneOf[e]!]!--;
    this.counts[e] = c - 1;
  }
}
