/**
 * Small statistics over samples: median, percentiles, min, max, and the
 * summary each figure of the report carries.
 *
 * @module
 */

/** A figure's summary over repeated runs. */
export interface Summary {
  /** Median of the samples. */
  readonly median: number;
  /** Smallest sample. */
  readonly min: number;
  /** Largest sample. */
  readonly max: number;
  /** Number of samples (runs). */
  readonly n: number;
}

/**
 * The `p`-th percentile (0..100) by linear interpolation between closest
 * ranks; NaN for no samples.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { percentile } from "./stats.ts";
 *
 * assert.equal(percentile([1, 2, 3, 4], 50), 2.5);
 * ```
 */
export function percentile(samples: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`Percentile must be in 0..100, got ${p}`);
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

/**
 * The median of `samples` (NaN for none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { median } from "./stats.ts";
 *
 * assert.equal(median([3, 1, 2]), 2);
 * ```
 */
export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/**
 * Median, min, max and count of `samples`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarize } from "./stats.ts";
 *
 * const s = summarize([5, 1, 3]);
 * assert.equal(s.median, 3);
 * assert.equal(s.min, 1);
 * assert.equal(s.max, 5);
 * assert.equal(s.n, 3);
 * ```
 */
export function summarize(samples: readonly number[]): Summary {
  const finite = samples.filter((x) => Number.isFinite(x));
  if (finite.length === 0) return { median: NaN, min: NaN, max: NaN, n: samples.length };
  return {
    median: median(finite),
    min: Math.min(...finite),
    max: Math.max(...finite),
    n: samples.length,
  };
}

/**
 * The mean of `samples` (NaN for none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mean } from "./stats.ts";
 *
 * assert.equal(mean([1, 2, 3]), 2);
 * ```
 */
export function mean(samples: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < samples.length; i++) total += samples[i]!;
  return samples.length === 0 ? NaN : total / samples.length;
}
