/**
 * A record of the executor combinations ("fragments") of one size used by
 * owner sets. Two sets share at least t executors exactly when they share a
 * fragment of size t, so keeping every set's (m+1)-fragments distinct keeps
 * every pairwise overlap ≤ m. Not part of the public API.
 *
 * @module
 */

/**
 * Counts of the size-`size` fragments of registered sets. A fragment's key
 * is its sorted executor indices in base `executors` (a number while that
 * fits in 53 bits, else a string).
 *
 * @example Two sets of three that share two executors
 * ```ts
 * import assert from "node:assert/strict";
 * import { FragmentIndex } from "./_fragments.ts";
 *
 * const pairs = new FragmentIndex(2, 10);
 * pairs.addSet(Int32Array.of(1, 2, 3));
 * assert.equal(pairs.conflicts([3, 1], 9), false);
 * assert.equal(pairs.conflicts([3, 9], 1), true);
 * assert.equal(pairs.addSet(Int32Array.of(3, 2, 7)), true);
 * assert.equal(pairs.shared, 1);
 * assert.deepEqual([...pairs.sharedCounts(Int32Array.of(1, 2, 3))], [0, 1, 1]);
 * ```
 */
export class FragmentIndex {
  /** Executors per fragment. */
  readonly size: number;
  readonly #base: number;
  readonly #numeric: boolean;
  readonly #counts = new Map<number | string, number>();
  #shared = 0;
  readonly #scratch: Int32Array;
  readonly #pick: Int32Array;

  /** An empty record of fragments of `size` executors among `executors`. */
  constructor(size: number, executors: number) {
    this.size = size;
    this.#base = Math.max(2, executors);
    this.#numeric = Math.pow(this.#base, size) <= Number.MAX_SAFE_INTEGER;
    this.#scratch = new Int32Array(size);
    this.#pick = new Int32Array(size);
  }

  /** Fragments that two or more registered sets contain. */
  get shared(): number {
    return this.#shared;
  }

  /** Registers every fragment of `set`; returns whether another set already had one of them. */
  addSet(set: ArrayLike<number>): boolean {
    let found = false;
    this.#each(set, set.length, -1, (key) => {
      const count = (this.#counts.get(key) ?? 0) + 1;
      this.#counts.set(key, count);
      if (count === 2) this.#shared++;
      if (count >= 2) found = true;
      return false;
    });
    return found;
  }

  /** Unregisters every fragment of `set` (registered before). */
  removeSet(set: ArrayLike<number>): void {
    this.#each(set, set.length, -1, (key) => {
      const count = this.#counts.get(key)! - 1;
      if (count === 1) this.#shared--;
      if (count === 0) this.#counts.delete(key);
      else this.#counts.set(key, count);
      return false;
    });
  }

  /** Whether `set` plus executor `e` would contain a registered fragment that includes `e`. */
  conflicts(set: ArrayLike<number>, e: number): boolean {
    return this.#each(set, set.length, e, (key) => this.#counts.has(key));
  }

  /**
   * For a registered `set`: how many of its fragments another registered set
   * shares, per member (0 everywhere when it overlaps no set in `size` or more).
   */
  sharedCounts(set: ArrayLike<number>): Int32Array {
    const shared = new Int32Array(set.length);
    const picked = this.#pick;
    this.#each(set, set.length, -1, (key) => {
      if ((this.#counts.get(key) ?? 0) >= 2) { for (const i of picked) shared[i]!++; }
      return false;
    });
    return shared;
  }

  /**
   * Calls `visit` with the key of every fragment of the first `length` items
   * of `set` (plus `extra` when ≥ 0, which every visited fragment then
   * contains) until it returns true; returns whether it did. `#pick` holds
   * the positions of the visited fragment's items.
   */
  #each(
    set: ArrayLike<number>,
    length: number,
    extra: number,
    visit: (key: number | string) => boolean,
  ): boolean {
    const r = extra >= 0 ? this.size - 1 : this.size;
    if (r > length || r < 0) return false;
    const pick = this.#pick;
    for (let i = 0; i < r; i++) pick[i] = i;
    while (true) {
      if (visit(this.#key(set, r, extra))) return true;
      let i = r - 1;
      while (i >= 0 && pick[i] === length - r + i) i--;
      if (i < 0) return false;
      pick[i]!++;
      for (let j = i + 1; j < r; j++) pick[j] = pick[j - 1]! + 1;
    }
  }

  #key(set: ArrayLike<number>, r: number, extra: number): number | string {
    const items = this.#scratch;
    for (let i = 0; i < r; i++) items[i] = set[this.#pick[i]!]!;
    if (extra >= 0) items[r] = extra;
    const n = this.size;
    for (let i = 1; i < n; i++) {
      const v = items[i]!;
      let j = i - 1;
      while (j >= 0 && items[j]! > v) {
        items[j + 1] = items[j]!;
        j--;
      }
      items[j + 1] = v;
    }
    if (!this.#numeric) return items.join(",");
    let key = 0;
    for (let i = 0; i < n; i++) key = key * this.#base + items[i]!;
    return key;
  }
}
