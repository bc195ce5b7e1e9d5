/**
 * How load lies inside a slice, as far as the planner can know: each top key
 * is a point mass at its hash, and the rest of the slice's load (the load not
 * explained by its top keys) is spread evenly over its range. From that model
 * come the load-weighted split point and the loads of the parts after a split.
 *
 * @module
 */
import { mergeSlices, type Slice, splitSlice } from "../../core/slices.ts";
import { keyHash } from "../../shared/key_hash.ts";
import type { KeyLoad, RangeSliceState } from "./types.ts";

/** A top key with its point on the line. */
export interface PointLoad {
  readonly key: string;
  readonly point: bigint;
  readonly load: number;
}

/** A slice being planned: mutable owners, load and keys (sorted by point, all inside the slice). */
export interface WorkSlice {
  slice: Slice;
  owners: string[];
  load: number;
  keys: PointLoad[];
  readonly pinned: boolean;
  /** In a handover (exclusive): its range stays as it is; its owner may change. */
  readonly locked: boolean;
}

/**
 * A slice's state as a {@linkcode WorkSlice}: its top keys hashed, those
 * outside the range dropped, sorted by point; total key load capped at the
 * slice's load.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LINE_END } from "../../core/slices.ts";
 * import { toWork } from "./load_model.ts";
 *
 * const slice = { id: 0, start: 0n, end: LINE_END, generation: 0 };
 * const work = toWork({ slice, owners: ["e1"], load: 5, topKeys: [{ key: "a", load: 3 }] });
 * assert.equal(work.keys[0]?.point, 0xd24ec4f1a98c6e5bn);
 * ```
 */
export function toWork(state: RangeSliceState): WorkSlice {
  const { start, end } = state.slice;
  const keys = (state.topKeys ?? [])
    .map((k: KeyLoad) => ({ key: k.key, point: keyHash(k.key), load: k.load }))
    .filter((k) => k.point >= start && k.point < end && k.load > 0)
    .sort((a, b) => (a.point < b.point ? -1 : a.point > b.point ? 1 : 0));
  return {
    slice: state.slice,
    owners: [...state.owners],
    load: Math.max(state.load, keys.reduce((sum, k) => sum + k.load, 0)),
    keys,
    pinned: state.pinned === true,
    locked: state.locked === true,
  };
}

/** The load of `w` not explained by its top keys, spread evenly over its range. */
function residual(w: WorkSlice): number {
  return Math.max(0, w.load - w.keys.reduce((sum, k) => sum + k.load, 0));
}

/** Share of `w`'s width in `[w.start, p)`. */
function widthShare(w: WorkSlice, p: bigint): number {
  return Number(p - w.slice.start) / Number(w.slice.end - w.slice.start);
}

/** Estimated load of `[w.start, p)`. */
export function loadBelow(w: WorkSlice, p: bigint): number {
  let load = residual(w) * widthShare(w, p);
  for (const k of w.keys) if (k.point < p) load += k.load;
  return Math.min(w.load, load);
}

/**
 * The point that halves `w`'s estimated load, strictly inside its range, or
 * `undefined` when it cannot be split (one point wide). A top key is never
 * cut: the point falls just before or just after it, whichever halves better.
 */
export function weightedSplitPoint(w: WorkSlice): bigint | undefined {
  const { start, end } = w.slice;
  if (end - start < 2n) return undefined;
  const clamp = (p: bigint) => (p <= start ? start + 1n : p >= end ? end - 1n : p);
  const width = Number(end - start);
  const rest = residual(w);
  const half = w.load / 2;
  if (w.load <= 0) return clamp(start + (end - start) / 2n);
  let below = 0, from = start;
  for (const k of w.keys) {
    const segment = rest * Number(k.point - from) / width;
    if (below + segment >= half && rest > 0) {
      return clamp(from + BigInt(Math.round(((half - below) / rest) * width)));
    }
    below += segment;
    if (below + k.load >= half) {
      const keyRight = half - below <= below + k.load - half;
      const p = keyRight ? k.point : k.point + 1n;
      if (p > start && p < end) return p;
      return clamp(keyRight ? k.point + 1n : k.point);
    }
    below += k.load;
    from = k.point;
  }
  return clamp(from + BigInt(Math.round(rest > 0 ? ((half - below) / rest) * width : 0)));
}

/** Splits `w` at `at` (owners kept by both parts); loads and keys follow the model. */
export function splitWork(w: WorkSlice, at: bigint, newId: number): [WorkSlice, WorkSlice] {
  const [left, right] = splitSlice(w.slice, at, newId);
  const leftLoad = loadBelow(w, at);
  return [
    {
      ...w,
      slice: left,
      owners: [...w.owners],
      load: leftLoad,
      keys: w.keys.filter((k) => k.point < at),
    },
    {
      ...w,
      slice: right,
      owners: [...w.owners],
      load: Math.max(0, w.load - leftLoad),
      keys: w.keys.filter((k) => k.point >= at),
    },
  ];
}

/** Merges `a` with its right neighbour `b`; the merged slice gets `owners`. */
export function mergeWork(a: WorkSlice, b: WorkSlice, owners: readonly string[]): WorkSlice {
  return {
    slice: mergeSlices(a.slice, b.slice),
    owners: [...owners],
    load: a.load + b.load,
    keys: [...a.keys, ...b.keys],
    pinned: false,
    locked: false,
  };
}

/** Whether `w`'s range must stay as it is this pass (pinned, or in a handover). */
export function fixedRange(w: WorkSlice): boolean {
  return w.pinned || w.locked;
}

/** Whether `w` is one point wide (a hot key's own slice). */
export function isSinglePoint(w: WorkSlice): boolean {
  return w.slice.end - w.slice.start === 1n;
}
