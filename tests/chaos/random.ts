/**
 * A small seeded generator (mulberry32), so a chaos run can be replayed from
 * its seed.
 *
 * @module
 */

/** Random numbers from a 32-bit seed. */
export class SeededRandom {
  #state: number;

  /**
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { SeededRandom } from "./random.ts";
   *
   * const a = new SeededRandom(42), b = new SeededRandom(42);
   * assert.equal(a.next(), b.next());
   * ```
   */
  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffff_ffff) {
      throw new RangeError(`seed must be an integer from 0 to 4294967295, got ${seed}`);
    }
    this.#state = seed;
  }

  /** A number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("Cannot pick from an empty list");
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A shuffled copy of `items`. */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }
}
