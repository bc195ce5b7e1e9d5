/**
 * One frozen object per distinct shard report. Reports are immutable and most
 * are alike (READY with the same load), so equal ones share an object: at
 * 1,000,000 shards one object per report was about 100 MiB of the service's
 * heap. Shared by the heartbeat's validation and the store's decoding.
 *
 * @module
 */
import type { KeyLoad, ShardReport, ShardReports, ShardStatus } from "./types.ts";

/** No reports: the reports of an executor that has sent none (never modify it). */
export const NO_REPORTS: ShardReports = new Map();

/**
 * Reports from their plain-object form (as JSON holds them), equal ones
 * shared; reports already in a map are returned as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportsFrom } from "./shared_reports.ts";
 *
 * const reports = reportsFrom({ "3": { status: "READY", load: 1 } });
 * assert.equal(reports.get("3")?.load, 1);
 * assert.deepEqual(Object.fromEntries(reports), { "3": { status: "READY", load: 1 } });
 * ```
 */
export function reportsFrom(
  record: Readonly<Record<string, ShardReport>> | ShardReports,
): ShardReports {
  if (record instanceof Map) return record;
  const reports = new Map<string, ShardReport>();
  const entries = Object.entries(record as Record<string, ShardReport>);
  for (const [key, { status, load, failedStarts, topKeys }] of entries) {
    reports.set(key, withTopKeys(sharedReport(status, load, failedStarts), topKeys));
  }
  return reports;
}

/**
 * `report` with a key-range slice's top keys (never shared: they vary), or
 * `report` itself when there are none.
 */
export function withTopKeys(
  report: ShardReport,
  topKeys: readonly KeyLoad[] | undefined,
): ShardReport {
  if (topKeys === undefined || topKeys.length === 0) return report;
  return Object.freeze({
    ...report,
    topKeys: Object.freeze(topKeys.map((k) => ({ key: k.key, load: k.load }))),
  });
}

/** Distinct reports shared at most; past it, new ones are not kept (loads vary too much). */
const SHARED_REPORTS_LIMIT = 4_096;
// Keyed by status, then by load as a number: a key string made per report would be
// looked up in V8's string table, which numeric shard keys make slow (core/index_keys.ts).
const sharedReports = new Map<ShardStatus, Map<number, ShardReport>>();
let sharedCount = 0;

/**
 * The shared report of `status` and `load` (a new frozen one past the limit,
 * and for a load of -0, which a map cannot tell from 0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sharedReport } from "./shared_reports.ts";
 *
 * assert.equal(sharedReport("READY", 1), sharedReport("READY", 1));
 * assert.notEqual(sharedReport("READY", 1), sharedReport("DONE", 1));
 * assert.ok(Object.isFrozen(sharedReport("READY", 2)));
 * assert.ok(Object.is(sharedReport("READY", -0).load, -0));
 * ```
 */
export function sharedReport(status: ShardStatus, load: number, failedStarts = 0): ShardReport {
  // Failed starts are rare and counted up: such reports are never shared.
  if (failedStarts > 0) return Object.freeze({ status, load, failedStarts });
  if (Object.is(load, -0)) return Object.freeze({ status, load });
  let byLoad = sharedReports.get(status);
  let report = byLoad?.get(load);
  if (report) return report;
  report = Object.freeze({ status, load });
  if (sharedCount < SHARED_REPORTS_LIMIT) {
    if (!byLoad) sharedReports.set(status, byLoad = new Map());
    byLoad.set(load, report);
    sharedCount++;
  }
  return report;
}
