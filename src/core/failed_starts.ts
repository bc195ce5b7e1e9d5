/**
 * The shards of one executor's reports that failed to start (poison-shard
 * detection: `failed_starts`), found once per reports object: an
 * executor's reports are replaced, never changed, when a heartbeat changes
 * them, so the planner and the leader's detector, which read them at every
 * pass, scan only the reports that changed (a namespace of 1,000,000 shards
 * would otherwise cost a walk over every report at every pass).
 *
 * @module
 */
import type { ShardReports } from "./types.ts";

const NONE: ReadonlyMap<string, number> = new Map();
const found = new WeakMap<ShardReports, ReadonlyMap<string, number>>();

/**
 * Shard key → consecutive failed starts, for the reports that have some.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failedStartsOf } from "./failed_starts.ts";
 *
 * const reports = new Map([
 *   ["1", { status: "READY" as const, load: 1 }],
 *   ["2", { status: "NOT_RUNNING" as const, load: 0, failedStarts: 3 }],
 * ]);
 * assert.deepEqual(failedStartsOf(reports), new Map([["2", 3]]));
 * assert.equal(failedStartsOf(reports), failedStartsOf(reports)); // found once
 * ```
 */
export function failedStartsOf(reports: ShardReports): ReadonlyMap<string, number> {
  if (reports.size === 0) return NONE;
  let failing = found.get(reports);
  if (failing === undefined) {
    let map: Map<string, number> | undefined;
    for (const [shardKey, report] of reports) {
      if ((report.failedStarts ?? 0) > 0) (map ??= new Map()).set(shardKey, report.failedStarts!);
    }
    failing = map ?? NONE;
    found.set(reports, failing);
  }
  return failing;
}
