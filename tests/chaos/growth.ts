/**
 * Whether a series of samples grew beyond noise over a soak: the median of
 * the last third of the samples taken after the warm-up, against the median
 * of the first third. Medians, so one spike (a garbage collection, a burst of
 * connections during a fault) decides nothing; thirds, so a slow leak shows
 * as the difference of two plateaus.
 *
 * @module
 */

/** When growth counts as a leak: both limits must be passed. */
export interface GrowthLimit {
  /** Growth relative to the early median, e.g. `0.25` for 25%. */
  readonly relative: number;
  /** Growth in the series' own unit (bytes, handles, keys). */
  readonly absolute: number;
}

/** The verdict on one series. */
export interface Growth {
  /** Median of the first third after the warm-up. */
  readonly early: number;
  /** Median of the last third. */
  readonly late: number;
  /** Samples judged (after the warm-up). */
  readonly samples: number;
  /** `late` passed both limits above `early`. */
  readonly leaked: boolean;
  /** Too few samples to judge (fewer than 6 after the warm-up). */
  readonly unjudged: boolean;
}

/** One sample of a series: when (ms since the epoch) and the value. */
export type Point = readonly [at: number, value: number];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Judges `points` (in time order), ignoring those before `warmUpUntil`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeGrowth } from "./growth.ts";
 *
 * const flat = Array.from({ length: 30 }, (_, i) => [i, 100 + (i % 3)] as const);
 * assert.equal(judgeGrowth(flat, 0, { relative: 0.2, absolute: 5 }).leaked, false);
 * const leak = Array.from({ length: 30 }, (_, i) => [i, 100 + 4 * i] as const);
 * assert.equal(judgeGrowth(leak, 0, { relative: 0.2, absolute: 5 }).leaked, true);
 * ```
 */
export function judgeGrowth(
  points: readonly Point[],
  warmUpUntil: number,
  limit: GrowthLimit,
): Growth {
  const values = points.filter(([at]) => at >= warmUpUntil).map(([, value]) => value);
  if (values.length < 6) {
    const v = values.length === 0 ? 0 : median(values);
    return { early: v, late: v, samples: values.length, leaked: false, unjudged: true };
  }
  const third = Math.floor(values.length / 3);
  const early = median(values.slice(0, third));
  const late = median(values.slice(values.length - third));
  const grew = late - early;
  const leaked = grew > limit.absolute && grew > limit.relative * Math.max(early, 0);
  return { early, late, samples: values.length, leaked, unjudged: false };
}
