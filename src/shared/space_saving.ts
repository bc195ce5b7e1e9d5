/**
 * The Space-Saving sketch (Metwally, Agrawal and El Abbadi, 2005) of the
 * heaviest keys of a weighted stream, in bounded space, and mergeable: what a
 * key-range executor reports per slice ("top keys") and what the range
 * planner reads to split a slice at its load-weighted point and to isolate a
 * hot key.
 *
 * Guarantees, for every key: a kept key's `count` is at least its true
 * weight and `count - error` at most; a key not kept weighs at most the
 * smallest kept count (0 while the sketch is not full). Both hold after
 * {@linkcode SpaceSaving.merge} too, for the combined stream.
 *
 * @module
 */

/** A kept key and its bounds: true weight in `[count - error, count]`. */
export interface HeavyHitter {
  /** The key. */
  readonly key: string;
  /** Upper bound of the key's weight. */
  readonly count: number;
  /** Most the count may overstate the weight. */
  readonly error: number;
}

/** Most keys a sketch may keep. */
export const MAX_SKETCH_CAPACITY = 4096;

/**
 * A Space-Saving sketch keeping at most `capacity` keys, in a min-heap by
 * count so that `offer` is O(log capacity).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SpaceSaving } from "./space_saving.ts";
 *
 * const sketch = new SpaceSaving(2);
 * for (const key of ["a", "b", "a", "c", "a"]) sketch.offer(key);
 * assert.deepEqual(sketch.top(1), [{ key: "a", count: 3, error: 0 }]);
 * assert.equal(sketch.total, 5);
 * assert.equal(sketch.size, 2);
 * ```
 */
export class SpaceSaving {
  readonly #capacity: number;
  readonly #keys: string[] = [];
  readonly #counts: number[] = [];
  readonly #errors: number[] = [];
  readonly #at = new Map<string, number>();
  #total = 0;

  /** A sketch that keeps at most `capacity` keys (1 to {@linkcode MAX_SKETCH_CAPACITY}). */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_SKETCH_CAPACITY) {
      throw new RangeError(
        `Expected a sketch capacity from 1 to ${MAX_SKETCH_CAPACITY}, got ${capacity}`,
      );
    }
    this.#capacity = capacity;
  }

  /** Most keys kept. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Keys kept now. */
  get size(): number {
    return this.#keys.length;
  }

  /** Sum of all weights offered (or merged). */
  get total(): number {
    return this.#total;
  }

  /** The smallest kept count when full (the most a key not kept can weigh), else 0. */
  get floor(): number {
    return this.#keys.length < this.#capacity ? 0 : this.#counts[0]!;
  }

  /** Adds `weight` (a finite number ≥ 0, default 1) to `key`. */
  offer(key: string, weight = 1): void {
    if (!(weight >= 0) || weight === Infinity) {
      throw new RangeError(`Expected a finite weight of 0 or more, got ${weight}`);
    }
    this.#total += weight;
    const i = this.#at.get(key);
    if (i !== undefined) {
      this.#counts[i]! += weight;
      return this.#down(i);
    }
    if (this.#keys.length < this.#capacity) {
      this.#keys.push(key), this.#counts.push(weight), this.#errors.push(0);
      this.#at.set(key, this.#keys.length - 1);
      return this.#up(this.#keys.length - 1);
    }
    const floor = this.#counts[0]!;
    this.#at.delete(this.#keys[0]!);
    this.#keys[0] = key, this.#counts[0] = floor + weight, this.#errors[0] = floor;
    this.#at.set(key, 0);
    this.#down(0);
  }

  /** The bounds of `key`, or `undefined` when it is not kept. */
  estimate(key: string): HeavyHitter | undefined {
    const i = this.#at.get(key);
    return i === undefined ? undefined : this.#entry(i);
  }

  /** The `n` (default all) heaviest kept keys, by count, then by key. */
  top(n: number = this.#capacity): HeavyHitter[] {
    return this.#keys.map((_, i) => this.#entry(i)).sort(byWeight).slice(0, n);
  }

  /**
   * A sketch of both streams, keeping `this.capacity` keys: a key missing
   * from one side counts that side's floor (its most possible weight there).
   */
  merge(other: SpaceSaving): SpaceSaving {
    const merged = new Map<string, { count: number; error: number }>();
    const mine = new Map(this.top().map((h) => [h.key, h]));
    const theirs = new Map(other.top().map((h) => [h.key, h]));
    for (const key of new Set([...mine.keys(), ...theirs.keys()])) {
      const a = mine.get(key), b = theirs.get(key);
      merged.set(key, {
        count: (a?.count ?? this.floor) + (b?.count ?? other.floor),
        error: (a?.error ?? this.floor) + (b?.error ?? other.floor),
      });
    }
    const entries = [...merged].map(([key, v]) => ({ key, ...v }));
    return SpaceSaving.from(this.#capacity, entries, this.#total + other.#total);
  }

  /** A sketch holding `entries` (the heaviest `capacity` of them) with the given stream total. */
  static from(capacity: number, entries: readonly HeavyHitter[], total: number): SpaceSaving {
    const sketch = new SpaceSaving(capacity);
    for (const e of [...entries].sort(byWeight).slice(0, capacity)) {
      if (!(e.count >= 0) || !(e.error >= 0) || e.error > e.count || sketch.#at.has(e.key)) {
        throw new RangeError(`Invalid sketch entry ${JSON.stringify(e)}`);
      }
      sketch.#keys.push(e.key), sketch.#counts.push(e.count), sketch.#errors.push(e.error);
      sketch.#at.set(e.key, sketch.#keys.length - 1);
      sketch.#up(sketch.#keys.length - 1);
    }
    sketch.#total = total;
    return sketch;
  }

  #entry(i: number): HeavyHitter {
    return { key: this.#keys[i]!, count: this.#counts[i]!, error: this.#errors[i]! };
  }

  #less(i: number, j: number): boolean {
    const ci = this.#counts[i]!, cj = this.#counts[j]!;
    return ci < cj || (ci === cj && this.#keys[i]! > this.#keys[j]!);
  }

  #swap(i: number, j: number): void {
    const k = this.#keys, c = this.#counts, e = this.#errors;
    [k[i], k[j]] = [k[j]!, k[i]!];
    [c[i], c[j]] = [c[j]!, c[i]!];
    [e[i], e[j]] = [e[j]!, e[i]!];
    this.#at.set(k[i]!, i), this.#at.set(k[j]!, j);
  }

  #up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(i, parent)) return;
      this.#swap(i, parent), i = parent;
    }
  }

  #down(i: number): void {
    const n = this.#keys.length;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let least = i;
      if (l < n && this.#less(l, least)) least = l;
      if (r < n && this.#less(r, least)) least = r;
      if (least === i) return;
      this.#swap(i, least), i = least;
    }
  }
}

function byWeight(a: HeavyHitter, b: HeavyHitter): number {
  return b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}
