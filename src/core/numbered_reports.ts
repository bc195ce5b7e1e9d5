/**
 * A reports record's entries whose keys are shard numbers ("0", "1", …), as
 * typed arrays, made once per record: records are replaced, never changed in
 * place, so a pass over a fixed namespace reads each executor's loads from
 * arrays instead of looking every shard up in its record (a dictionary of a
 * thousand entries per executor at 1,000,000 shards).
 *
 * @module
 */
import type { ShardReport } from "./types.ts";

/** The numbered entries of one reports record. */
export interface NumberedReports {
  /** Shard numbers, in the record's order. */
  readonly numbers: Int32Array;
  /** The load of each (`loads[j]` is shard `numbers[j]`'s). */
  readonly loads: Float64Array;
  /** Every entry of the record, numbered or not. */
  readonly size: number;
}

const cache = new WeakMap<Readonly<Record<string, ShardReport>>, NumberedReports>();

/**
 * The numbered entries of `reports` (keys that are canonical numbers below
 * 2^31; other keys are only counted in `size`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numberedReports } from "./numbered_reports.ts";
 *
 * const reports = {
 *   "3": { status: "READY", load: 2 },
 *   "x": { status: "READY", load: 1 },
 *   "07": { status: "READY", load: 5 },
 * } as const;
 * const numbered = numberedReports(reports);
 * assert.deepEqual([...numbered.numbers], [3]);
 * assert.deepEqual([...numbered.loads], [2]);
 * assert.equal(numbered.size, 3);
 * assert.equal(numberedReports(reports), numbered); // made once
 * ```
 */
export function numberedReports(reports: Readonly<Record<string, ShardReport>>): NumberedReports {
  const known = cache.get(reports);
  if (known) return known;
  const keys = Object.keys(reports);
  const numbers = new Int32Array(keys.length);
  const loads = new Float64Array(keys.length);
  let count = 0;
  for (const key of keys) {
    const n = +key;
    // Canonical: no sign, point, exponent or leading zero (their keys are other shards' names).
    if (!(n >= 0 && n <= 0x7fffffff && Number.isInteger(n)) || String(n) !== key) continue;
    numbers[count] = n;
    loads[count] = reports[key]!.load;
    count++;
  }
  const numbered = {
    numbers: numbers.subarray(0, count),
    loads: loads.subarray(0, count),
    size: keys.length,
  };
  cache.set(reports, numbered);
  return numbered;
}

/**
 * How many reports `reports` holds, without listing its keys again once
 * {@linkcode numberedReports} has seen it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportCount } from "./numbered_reports.ts";
 *
 * assert.equal(reportCount({ a: { status: "READY", load: 1 } }), 1);
 * ```
 */
export function reportCount(reports: Readonly<Record<string, ShardReport>>): number {
  return cache.get(reports)?.size ?? Object.keys(reports).length;
}
