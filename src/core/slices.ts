/**
 * Slices of the 64-bit hash line of a key-range namespace: each a half-open
 * range `[start, end)` with a stable id and a generation, and the slice map
 * that covers the whole line `[0, 2^64)` exactly once.
 *
 * A split keeps the id of the left part and gives the right part a new one; a
 * merge keeps the id of the left slice. Either bumps the generation of the
 * slice that keeps its id, so `(id, generation)` names one range for good.
 *
 * @module
 */
import { hashKeyInto } from "../shared/key_hash.ts";
import { PointIndex } from "../shared/point_index.ts";

/** One past the last point of the hash line: 2^64. */
export const LINE_END: bigint = 1n << 64n;

/** A contiguous half-open range of the hash line. */
export interface Slice {
  /** Stable id, unique in its map (a non-negative integer). */
  readonly id: number;
  /** First point (inclusive). */
  readonly start: bigint;
  /** One past the last point (exclusive; {@linkcode LINE_END} for the last slice). */
  readonly end: bigint;
  /** Bumped each time the range of this id changes (0 when created). */
  readonly generation: number;
}

const scratch = new Uint32Array(2);

/**
 * An immutable slice map: slices in line order covering `[0, 2^64)` exactly
 * once, looked up by key (hash, then binary search) without allocating.
 * Changes return a new map.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SliceMap } from "./slices.ts";
 *
 * const map = SliceMap.initial(4);
 * const split = map.split(0, 1n << 61n);
 * assert.equal(split.size, 5);
 * assert.deepEqual(split.slices.map((s) => s.id), [0, 4, 1, 2, 3]);
 * assert.equal(split.merge(0, 4).slices[0]?.generation, 2);
 * assert.equal(map.sliceOfKey("user:42").id, map.slices[map.indexOfKey("user:42")]?.id);
 * assert.ok(split.merge(0, 4).equals(split.merge(0, 4)) && !split.equals(map));
 * ```
 */
export class SliceMap {
  readonly #slices: readonly Slice[];
  readonly #nextId: number;
  readonly #index: PointIndex;
  #byId: Map<number, Slice> | undefined;

  private constructor(slices: readonly Slice[], nextId: number) {
    this.#slices = slices;
    this.#nextId = nextId;
    this.#index = new PointIndex(slices.map((s) => s.start));
  }

  /**
   * `count` equal slices with ids `0..count-1`, generation 0 (the last one
   * takes the remainder).
   */
  static initial(count: number): SliceMap {
    if (!Number.isSafeInteger(count) || count < 1 || count > 1_000_000) {
      throw new RangeError(`Expected a slice count from 1 to 1000000, got ${count}`);
    }
    const width = LINE_END / BigInt(count);
    const slices = Array.from({ length: count }, (_, i): Slice => ({
      id: i,
      start: width * BigInt(i),
      end: i === count - 1 ? LINE_END : width * BigInt(i + 1),
      generation: 0,
    }));
    return new SliceMap(slices, count);
  }

  /**
   * A map of the given slices, checked: in line order, contiguous from 0 to
   * 2^64, non-empty, ids unique non-negative integers below `nextId`
   * (default: one more than the largest id). Throws a `RangeError` naming the
   * first problem.
   */
  static from(slices: readonly Slice[], nextId?: number): SliceMap {
    const next = nextId ?? slices.reduce((m, s) => Math.max(m, s.id + 1), 0);
    const problem = coverageProblem(slices, next);
    if (problem !== undefined) throw new RangeError(`Invalid slice map: ${problem}`);
    return new SliceMap(slices.map((s) => ({ ...s })), next);
  }

  /** The slices in line order. */
  get slices(): readonly Slice[] {
    return this.#slices;
  }

  /** Number of slices. */
  get size(): number {
    return this.#slices.length;
  }

  /** The id the next new slice gets. */
  get nextId(): number {
    return this.#nextId;
  }

  /** Index of the slice holding the point given as its high and low 32-bit halves. */
  indexOfHalves(high: number, low: number): number {
    return this.#index.indexOfHalves(high, low); // the map starts at 0: never -1
  }

  /** Index of the slice holding `point` (0 ≤ point < 2^64). */
  indexOfPoint(point: bigint): number {
    return this.#index.indexOfPoint(point);
  }

  /** Index of the slice holding `key`'s hash: the fast path of a lookup. */
  indexOfKey(key: string): number {
    hashKeyInto(key, scratch);
    return this.indexOfHalves(scratch[0]!, scratch[1]!);
  }

  /** The slice holding `key`. */
  sliceOfKey(key: string): Slice {
    return this.#slices[this.indexOfKey(key)]!;
  }

  /** The slice with id `id`; throws a `RangeError` when there is none. */
  byId(id: number): Slice {
    const slice = this.find(id);
    if (slice === undefined) throw new RangeError(`No slice with id ${id}`);
    return slice;
  }

  /** The slice with id `id`, or undefined (an index by id, built on first use). */
  find(id: number): Slice | undefined {
    this.#byId ??= new Map(this.#slices.map((s) => [s.id, s]));
    return this.#byId.get(id);
  }

  /** Splits slice `id` at `at` (start < at < end): `[start, at)` keeps the id, `[at, end)` is new. */
  split(id: number, at: bigint): SliceMap {
    const i = this.#slices.findIndex((s) => s.id === id);
    const slice = this.#slices[i];
    if (slice === undefined) throw new RangeError(`No slice with id ${id} to split`);
    const [left, right] = splitSlice(slice, at, this.#nextId);
    return new SliceMap(this.#slices.toSpliced(i, 1, left, right), this.#nextId + 1);
  }

  /** Merges slice `leftId` with `rightId`, which must follow it on the line; `leftId` stays. */
  merge(leftId: number, rightId: number): SliceMap {
    const i = this.#slices.findIndex((s) => s.id === leftId);
    const left = this.#slices[i], right = this.#slices[i + 1];
    if (left === undefined) throw new RangeError(`No slice with id ${leftId} to merge`);
    if (right?.id !== rightId) {
      throw new RangeError(`Slice ${rightId} does not follow slice ${leftId} on the line`);
    }
    return new SliceMap(this.#slices.toSpliced(i, 2, mergeSlices(left, right)), this.#nextId);
  }

  /** Whether `other` has the same slices (ids, ranges, generations) and the same next id. */
  equals(other: SliceMap): boolean {
    if (other === this) return true;
    if (other.size !== this.size || other.nextId !== this.#nextId) return false;
    const mine = this.#slices, theirs = other.slices;
    for (let i = 0; i < mine.length; i++) {
      const a = mine[i]!, b = theirs[i]!;
      if (a.id !== b.id || a.start !== b.start || a.generation !== b.generation) return false;
    }
    return true;
  }

  /** Gives `point` a single-point slice `[point, point + 1)` (a hot key's), splitting as needed. */
  isolate(point: bigint): SliceMap {
    const slice = this.#slices[this.indexOfPoint(point)]!;
    if (slice.start < point) return this.split(slice.id, point).isolate(point);
    return slice.end > point + 1n ? this.split(slice.id, point + 1n) : this;
  }
}

/**
 * Splits `slice` at `at`: the left part keeps the id with its generation
 * bumped, the right part gets `newId` and generation 0. Throws a `RangeError`
 * unless `start < at < end`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitSlice } from "./slices.ts";
 *
 * const [l, r] = splitSlice({ id: 3, start: 0n, end: 10n, generation: 1 }, 4n, 9);
 * assert.deepEqual([l, r], [
 *   { id: 3, start: 0n, end: 4n, generation: 2 },
 *   { id: 9, start: 4n, end: 10n, generation: 0 },
 * ]);
 * ```
 */
export function splitSlice(slice: Slice, at: bigint, newId: number): [Slice, Slice] {
  if (at <= slice.start || at >= slice.end) {
    throw new RangeError(
      `Cannot split slice ${slice.id} [${slice.start}, ${slice.end}) at ${at}: ` +
        "the point must lie strictly inside it",
    );
  }
  return [
    { id: slice.id, start: slice.start, end: at, generation: slice.generation + 1 },
    { id: newId, start: at, end: slice.end, generation: 0 },
  ];
}

/**
 * Merges `left` with `right`, which must start where `left` ends; the result
 * keeps `left`'s id with its generation bumped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeSlices } from "./slices.ts";
 *
 * const merged = mergeSlices(
 *   { id: 1, start: 0n, end: 4n, generation: 0 },
 *   { id: 2, start: 4n, end: 9n, generation: 5 },
 * );
 * assert.deepEqual(merged, { id: 1, start: 0n, end: 9n, generation: 1 });
 * ```
 */
export function mergeSlices(left: Slice, right: Slice): Slice {
  if (left.end !== right.start) {
    throw new RangeError(`Slices ${left.id} and ${right.id} are not adjacent`);
  }
  return { id: left.id, start: left.start, end: right.end, generation: left.generation + 1 };
}

/**
 * What keeps `slices` from covering the line exactly once, or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { coverageProblem, LINE_END } from "./slices.ts";
 *
 * assert.equal(coverageProblem([{ id: 0, start: 0n, end: LINE_END, generation: 0 }], 1), undefined);
 * assert.match(coverageProblem([{ id: 0, start: 1n, end: LINE_END, generation: 0 }], 1)!, /at 0/);
 * ```
 */
export function coverageProblem(slices: readonly Slice[], nextId: number): string | undefined {
  if (slices.length === 0) return "no slices; the line must be covered";
  const ids = new Set<number>();
  let at = 0n;
  for (const [i, s] of slices.entries()) {
    if (!Number.isSafeInteger(s.id) || s.id < 0 || s.id >= nextId) {
      return `slice ${i} has id ${s.id}, expected an integer from 0 to ${nextId - 1}`;
    }
    if (ids.has(s.id)) return `id ${s.id} is used twice`;
    ids.add(s.id);
    if (!Number.isSafeInteger(s.generation) || s.generation < 0) {
      return `slice ${s.id} has generation ${s.generation}, expected a non-negative integer`;
    }
    if (s.start !== at) return `slice ${s.id} starts at ${s.start}, expected it at ${at}`;
    if (s.end <= s.start) return `slice ${s.id} is empty or reversed: [${s.start}, ${s.end})`;
    at = s.end;
  }
  return at === LINE_END ? undefined : `the last slice ends at ${at}, expected 2^64`;
}
