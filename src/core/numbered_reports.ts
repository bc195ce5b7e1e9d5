/**
 * An executor's reports whose keys are shard numbers ("0", "1", …), as typed
 * arrays, made once per reports map: reports are replaced, never changed in
 * place, so a pass over a fixed namespace reads each executor's loads from
 * arrays instead of looking every shard up by key (a thousand per executor at
 * 1,000,000 shards).
 *
 * @module
 */
import { indexKey } from "./index_keys.ts";
import type { ShardReports } from "./types.ts";

/** The numbered entries of one executor's reports. */
export interface NumberedReports {
  /** Shard numbers, in the record's order. */
  readonly numbers: Int32Array;
  /** The load of each (`loads[j]` is shard `numbers[j]`'s; NaN: unknown, reported PREPARED). */
  readonly loads: Float64Array;
}

const cache = new WeakMap<ShardReports, NumberedReports>();

/**
 * The numbered entries of `reports` (keys that are canonical numbers below
 * 2^31; other keys are left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numberedReports } from "./numbered_reports.ts";
 *
 * const reports = new Map([
 *   ["3", { status: "READY", load: 2 }],
 *   ["x", { status: "READY", load: 1 }],
 *   ["07", { status: "READY", load: 5 }],
 * ] as const);
 * const numbered = numberedReports(reports);
 * assert.deepEqual([...numbered.numbers], [3]);
 * assert.deepEqual([...numbered.loads], [2]);
 * assert.equal(numberedReports(reports), numbered); // made once
 * ```
 */
export function numberedReports(reports: ShardReports): NumberedReports {
  const known = cache.get(reports);
  if (known) return known;
  const numbers = new Int32Array(reports.size);
  const loads = new Float64Array(reports.size);
  let count = 0;
  for (const [key, report] of reports) {
    const n = +key;
    // Canonical: no sign, point, exponent or leading zero (their keys are other shards' names).
    if (!(n >= 0 && n <= 0x7fffffff && Number.isInteger(n)) || indexKey(n) !== key) continue;
    numbers[count] = n;
    // A PREPARED report (a warm handover's incoming owner) says nothing of the load: unknown.
    loads[count] = report.status === "PREPARED" ? NaN : report.load;
    count++;
  }
  const numbered = { numbers: numbers.subarray(0, count), loads: loads.subarray(0, count) };
  cache.set(reports, numbered);
  return numbered;
}
