/**
 * Bases for read-only views that present compact storage (typed arrays, say)
 * as a `ReadonlySet` or `ReadonlyMap`: a subclass gives membership, size and
 * iteration; the rest of the interface is derived here the same way for all.
 *
 * @module
 */

/**
 * A `ReadonlySet` from `has`, `size` and iteration. Set algebra copies the
 * view into a `Set` first: views are for reading one element or walking all,
 * not for algebra on the hot path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ReadonlySetBase } from "./readonly_views.ts";
 *
 * class Evens extends ReadonlySetBase<number> {
 *   constructor(readonly below: number) {
 *     super();
 *   }
 *   has(n: number): boolean {
 *     return n % 2 === 0 && n >= 0 && n < this.below;
 *   }
 *   get size(): number {
 *     return Math.ceil(this.below / 2);
 *   }
 *   *[Symbol.iterator](): SetIterator<number> {
 *     for (let n = 0; n < this.below; n += 2) yield n;
 *   }
 * }
 * const evens = new Evens(5);
 * assert.deepEqual([...evens], [0, 2, 4]);
 * assert.ok(evens.isSubsetOf(new Set([0, 1, 2, 3, 4])));
 * ```
 */
export abstract class ReadonlySetBase<T> implements ReadonlySet<T> {
  /** True when `value` is in the set. */
  abstract has(value: T): boolean;
  /** Number of elements. */
  abstract get size(): number;
  /** The elements. */
  abstract [Symbol.iterator](): SetIterator<T>;

  /** The elements. */
  keys(): SetIterator<T> {
    return this[Symbol.iterator]();
  }

  /** The elements. */
  values(): SetIterator<T> {
    return this[Symbol.iterator]();
  }

  /** Each element twice, as `Set.prototype.entries` gives them. */
  *entries(): SetIterator<[T, T]> {
    for (const value of this) yield [value, value];
  }

  /** Calls `fn` for each element. */
  forEach(fn: (value: T, key: T, set: ReadonlySet<T>) => void, thisArg?: unknown): void {
    for (const value of this) fn.call(thisArg, value, value, this);
  }

  /** A new `Set` of the elements of both. */
  union<U>(other: ReadonlySetLike<U>): Set<T | U> {
    return new Set<T>(this).union(other);
  }

  /** A new `Set` of the elements in both. */
  intersection<U>(other: ReadonlySetLike<U>): Set<T & U> {
    return new Set<T>(this).intersection(other);
  }

  /** A new `Set` of the elements not in `other`. */
  difference<U>(other: ReadonlySetLike<U>): Set<T> {
    return new Set<T>(this).difference(other);
  }

  /** A new `Set` of the elements in exactly one of the two. */
  symmetricDifference<U>(other: ReadonlySetLike<U>): Set<T | U> {
    return new Set<T>(this).symmetricDifference(other);
  }

  /** True when every element is in `other`. */
  isSubsetOf(other: ReadonlySetLike<unknown>): boolean {
    return new Set<T>(this).isSubsetOf(other);
  }

  /** True when every element of `other` is in this set. */
  isSupersetOf(other: ReadonlySetLike<unknown>): boolean {
    return new Set<T>(this).isSupersetOf(other);
  }

  /** True when no element is in both. */
  isDisjointFrom(other: ReadonlySetLike<unknown>): boolean {
    return new Set<T>(this).isDisjointFrom(other);
  }
}

/**
 * A `ReadonlyMap` from `get`, `size` and iteration of its entries.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ReadonlyMapBase } from "./readonly_views.ts";
 *
 * class Squares extends ReadonlyMapBase<number, number> {
 *   get(n: number): number | undefined {
 *     return Number.isInteger(n) && n >= 0 && n < 3 ? n * n : undefined;
 *   }
 *   get size(): number {
 *     return 3;
 *   }
 *   *entries(): MapIterator<[number, number]> {
 *     for (let n = 0; n < 3; n++) yield [n, n * n];
 *   }
 * }
 * const squares = new Squares();
 * assert.deepEqual([...squares.values()], [0, 1, 4]);
 * assert.ok(squares.has(2) && !squares.has(3));
 * ```
 */
export abstract class ReadonlyMapBase<K, V> implements ReadonlyMap<K, V> {
  /** The value of `key`, if it has one. */
  abstract get(key: K): V | undefined;
  /** Number of entries. */
  abstract get size(): number;
  /** Every entry. */
  abstract entries(): MapIterator<[K, V]>;

  /** True when `key` has a value (a view never holds `undefined` values). */
  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** Every entry. */
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  /** Every key. */
  *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  /** Every value. */
  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  /** Calls `fn` for each entry. */
  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) fn.call(thisArg, value, key, this);
  }
}
