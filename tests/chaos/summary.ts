/**
 * Figures and the printed table of a chaos run.
 *
 * @module
 */

/** p50/p99/max of a list of durations. */
export interface Percentiles {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/**
 * Nearest-rank percentiles; zeros for an empty list.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { percentiles } from "./summary.ts";
 *
 * assert.equal(percentiles([5, 1, 3]).p50, 3);
 * ```
 */
export function percentiles(values: readonly number[]): Percentiles {
  if (values.length === 0) return { count: 0, p50: 0, p99: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  return { count: sorted.length, p50: rank(0.5), p99: rank(0.99), max: sorted.at(-1)! };
}

/** Rows of label and value as an aligned two-column table. */
export function table(
  title: string,
  rows: readonly (readonly [string, string | number])[],
): string {
  const width = Math.max(...rows.map(([label]) => label.length), 10);
  const lines = rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
  return [title, ...lines].join("\n");
}
