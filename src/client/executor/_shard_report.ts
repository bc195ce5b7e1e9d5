/**
 * One `ShardStatusReport` as the SDK sends it: `failed_starts` only when
 * above 0, as proto3 leaves a zero out (a report of a running shard stays
 * byte for byte what it was before the field existed).
 *
 * @module
 */
import type { ShardStatusReport__Output } from "../../wire/proto.ts";

/**
 * A report of `status` and `shardLoad`, with `failedStarts` when above 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardReport } from "./_shard_report.ts";
 *
 * assert.deepEqual(shardReport("SHARD_STATUS_READY", 2), { status: "SHARD_STATUS_READY", shardLoad: 2 });
 * assert.equal(shardReport("SHARD_STATUS_NOT_RUNNING", 0, 3).failedStarts, 3);
 * ```
 */
export function shardReport(
  status: ShardStatusReport__Output["status"],
  shardLoad: number,
  failedStarts = 0,
): ShardStatusReport__Output {
  // The generated output type lists every field; a zero is left out on purpose.
  return (failedStarts > 0
    ? { status, shardLoad, failedStarts }
    : { status, shardLoad }) as ShardStatusReport__Output;
}
