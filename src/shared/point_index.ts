/**
 * Finding which range of the 64-bit hash line holds a point, without
 * allocating: the lookup behind a key-range namespace's routing, on the
 * server (`SliceMap`) and in the SDKs (a spectator's `ownerOf(key)`).
 *
 * Points are taken as two 32-bit halves (what `hashKeyInto` writes), and the
 * range starts are kept the same way in `Uint32Array`s. A bucket table over
 * the top 4-16 bits of a point (4-8 entries per range, built on the first
 * lookup) narrows the search to one or two ranges; a binary search finishes.
 *
 * @module
 */
import { hashKeyInto } from "./key_hash.ts";

const TWO_32 = 0x1_0000_0000n;

/**
 * The index of the last start at or before a point, over ascending starts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PointIndex } from "./point_index.ts";
 *
 * const index = new PointIndex([10n, 1n << 40n, 1n << 63n]);
 * assert.equal(index.indexOfPoint(5n), -1); // before the first start
 * assert.equal(index.indexOfPoint(10n), 0);
 * assert.equal(index.indexOfHalves(0x100, 0), 1); // 2^40 as halves
 * assert.equal(index.indexOfPoint((1n << 64n) - 1n), 2);
 * ```
 */
export class PointIndex {
  readonly #hi: Uint32Array;
  readonly #lo: Uint32Array;
  #buckets: Uint32Array | undefined;
  #shift = 32;

  /**
   * An index of `starts`, strictly ascending points of the line (0 to
   * 2^64 - 1); throws a `RangeError` otherwise.
   */
  constructor(starts: readonly bigint[]) {
    const n = starts.length;
    this.#hi = new Uint32Array(n);
    this.#lo = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const start = starts[i]!;
      if (!(start >= 0n && start < TWO_32 * TWO_32) || (i > 0 && start <= starts[i - 1]!)) {
        throw new RangeError(
          `Expected strictly ascending points of the line, got ${start} at ${i}`,
        );
      }
      this.#hi[i] = Number(start / TWO_32);
      this.#lo[i] = Number(start % TWO_32);
    }
  }

  /** Number of starts. */
  get size(): number {
    return this.#hi.length;
  }

  /** The index of the last start at or before the point `high:low`; -1 when there is none. */
  indexOfHalves(high: number, low: number): number {
    const hi = this.#hi, lo = this.#lo;
    if (hi.length === 0 || high < hi[0]! || (high === hi[0] && low < lo[0]!)) return -1;
    const table = this.#buckets ?? this.#bucketTable();
    const bucket = high >>> this.#shift;
    let a = table[bucket]!, b = table[bucket + 1]!;
    while (a < b) {
      const m = (a + b + 1) >>> 1;
      const mh = hi[m]!;
      if (mh < high || (mh === high && lo[m]! <= low)) a = m;
      else b = m - 1;
    }
    return a;
  }

  /** {@linkcode PointIndex.indexOfHalves} for a point given as a `bigint` (0 to 2^64 - 1). */
  indexOfPoint(point: bigint): number {
    if (point < 0n || point >= TWO_32 * TWO_32) {
      throw new RangeError(`Expected a point from 0 to 2^64 - 1, got ${point}`);
    }
    return this.indexOfHalves(Number(point / TWO_32), Number(point % TWO_32));
  }

  /**
   * Entry `b` is the index of the last start at or before the first point of
   * bucket `b` (0 when none is), so the answer for any point of bucket `b`
   * lies between entries `b` and `b + 1`.
   */
  #bucketTable(): Uint32Array {
    const hi = this.#hi, lo = this.#lo, n = hi.length;
    const bits = Math.min(16, Math.max(4, Math.ceil(Math.log2(n)) + 2));
    this.#shift = 32 - bits;
    const table = new Uint32Array((1 << bits) + 1);
    let i = 0;
    for (let b = 0; b < 1 << bits; b++) {
      const first = (b << this.#shift) >>> 0;
      while (i + 1 < n && (hi[i + 1]! < first || (hi[i + 1] === first && lo[i + 1] === 0))) i++;
      table[b] = i;
    }
    table[1 << bits] = n - 1;
    return this.#buckets = table;
  }
}

/** A range of the line, both ends included. */
export interface PointRange {
  /** First point. */
  readonly firstPoint: bigint;
  /** Last point (included). */
  readonly lastPoint: bigint;
}

/**
 * Ranges of the line that need not cover it (a gap holds no key), looked up
 * by key: hash, then {@linkcode PointIndex}, then a check against the found
 * range's last point.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyHash } from "./key_hash.ts";
 * import { RangeIndex } from "./point_index.ts";
 *
 * const point = keyHash("user:42");
 * const index = new RangeIndex([{ firstPoint: point, lastPoint: point }]);
 * assert.equal(index.indexOfKey("user:42"), 0);
 * assert.equal(index.indexOfKey("user:43"), -1);
 * ```
 */
export class RangeIndex {
  readonly #starts: PointIndex;
  readonly #lastHi: Uint32Array;
  readonly #lastLo: Uint32Array;
  readonly #point = new Uint32Array(2);
  /** Whether the ranges cover the whole line (then no point falls in a gap). */
  readonly #whole: boolean;

  /** An index of `ranges`, in line order, none overlapping; throws a `RangeError` otherwise. */
  constructor(ranges: readonly PointRange[]) {
    ranges.forEach((r, i) => {
      const previous = ranges[i - 1];
      if (!(r.firstPoint <= r.lastPoint && r.lastPoint < TWO_32 * TWO_32)) {
        throw new RangeError(`Range ${i} is not one: [${r.firstPoint}, ${r.lastPoint}]`);
      }
      if (previous && r.firstPoint <= previous.lastPoint) {
        throw new RangeError(`Ranges ${i - 1} and ${i} overlap or are out of order`);
      }
    });
    this.#starts = new PointIndex(ranges.map((r) => r.firstPoint));
    this.#lastHi = Uint32Array.from(ranges, (r) => Number(r.lastPoint / TWO_32));
    this.#lastLo = Uint32Array.from(ranges, (r) => Number(r.lastPoint % TWO_32));
    this.#whole = ranges.length > 0 && ranges[0]!.firstPoint === 0n &&
      ranges.at(-1)!.lastPoint === TWO_32 * TWO_32 - 1n &&
      ranges.every((r, i) => i === 0 || r.firstPoint === ranges[i - 1]!.lastPoint + 1n);
  }

  /** Number of ranges. */
  get size(): number {
    return this.#lastHi.length;
  }

  /** The index of the range holding the point `high:low`, or -1. */
  indexOfHalves(high: number, low: number): number {
    const i = this.#starts.indexOfHalves(high, low);
    if (i < 0 || this.#whole) return i;
    const lastHi = this.#lastHi[i]!;
    return high < lastHi || (high === lastHi && low <= this.#lastLo[i]!) ? i : -1;
  }

  /** The index of the range holding `key`'s point (XXH64 of its UTF-8 bytes), or -1. */
  indexOfKey(key: string): number {
    hashKeyInto(key, this.#point);
    return this.indexOfHalves(this.#point[0]!, this.#point[1]!);
  }
}
