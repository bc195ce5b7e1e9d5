/**
 * Human output of the `executor` commands.
 *
 * @module
 */
import { aliveCell, drainedCell, formatLoad, formatPairs, statusCell } from "./cells.ts";
import { palette as makePalette } from "./colour.ts";
import { formatDuration } from "./duration.ts";
import type { ExecutorDetailModel, ExecutorModel } from "./model.ts";
import { renderKeyValues, renderTable } from "./table.ts";
import { ago, shortTime } from "./time.ts";

const PLAIN = makePalette(false);

/**
 * The executors table: id, status, alive, heartbeat age, shards, load, drained;
 * `wide` (`-o wide`) adds the time of the last heartbeat and the metadata.
 * When some executor owns shards it does not run (exclusive namespaces), a
 * NOT RUNNING column after SHARDS counts them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ExecutorModel } from "./model.ts";
 * import { executorTable } from "./executor_format.ts";
 *
 * const a: ExecutorModel = {
 *   id: "a", status: "ACTIVE", alive: true, liveness: "alive", unknownSince: null, heartbeatAgeMs: 400, lastHeartbeat: null,
 *   shardCount: 2, totalLoad: 1.5, drained: false, drainedBy: [], metadata: {},
 * };
 * assert.equal(executorTable([a]), [
 *   "EXECUTOR  STATUS  ALIVE  HEARTBEAT  SHARDS  LOAD  DRAINED",
 *   "a         ACTIVE  yes    400ms ago       2   1.5  -",
 * ].join("\n"));
 * assert.equal(executorTable([]), "No executors.");
 * ```
 */
export function executorTable(
  executors: readonly ExecutorModel[],
  paint = PLAIN,
  wide = false,
): string {
  if (executors.length === 0) return "No executors.";
  const stopped = executors.some((e) => (e.notRunningShards ?? 0) > 0);
  return renderTable(
    [
      { header: "EXECUTOR" },
      { header: "STATUS" },
      { header: "ALIVE" },
      { header: "HEARTBEAT", align: "right" },
      { header: "SHARDS", align: "right" },
      ...(stopped ? [{ header: "NOT RUNNING", align: "right" as const }] : []),
      { header: "LOAD", align: "right" },
      { header: "DRAINED" },
      ...(wide ? [{ header: "LAST HEARTBEAT" }, { header: "METADATA" }] : []),
    ],
    executors.map((e) => [
      e.id,
      statusCell(e.status, paint),
      aliveCell(e.alive, paint, e.liveness),
      `${formatDuration(e.heartbeatAgeMs)} ago`,
      String(e.shardCount),
      ...(stopped ? [notRunningCell(e.notRunningShards ?? 0, paint)] : []),
      formatLoad(e.totalLoad),
      drainedCell(e.drained, e.drainedBy, paint),
      ...(wide ? [e.lastHeartbeat ?? "-", formatPairs(e.metadata)] : []),
    ]),
    { palette: paint },
  );
}

/**
 * Everything about one executor: a key/value block, its metadata, then its
 * shards with their loads. `now` is the local clock, for ages.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ExecutorDetailModel } from "./model.ts";
 * import { executorDetail } from "./executor_format.ts";
 *
 * const a: ExecutorDetailModel = {
 *   id: "a", status: "ACTIVE", alive: true, liveness: "alive", unknownSince: null, heartbeatAgeMs: 400, lastHeartbeat: "1970-01-01T00:00:01Z",
 *   shardCount: 1, totalLoad: 1.5, drained: false, drainedBy: [], metadata: { address: "10.0.0.5:8080" },
 *   shards: [{ key: "7", load: 1.5, assignedRevision: 42, assignedAt: "1970-01-01T00:00:01Z" }],
 * };
 * const lines = executorDetail(a, 61_000).split("\n");
 * assert.equal(lines[3], "Last heartbeat  1970-01-01 00:00:01Z (400ms ago)");
 * assert.equal(lines.at(-1), "7       1.5        42  1970-01-01 00:00:01Z  1m ago");
 * ```
 */
export function executorDetail(e: ExecutorDetailModel, now: number, paint = PLAIN): string {
  const lastBeat = e.lastHeartbeat === null ? null : Date.parse(e.lastHeartbeat);
  const head = renderKeyValues([
    ["Executor", paint.cyan(e.id)],
    ["Status", statusCell(e.status, paint)],
    ["Alive", aliveCell(e.alive, paint, e.liveness)],
    ["Last heartbeat", `${shortTime(lastBeat)} (${formatDuration(e.heartbeatAgeMs)} ago)`],
    ["Drained", drainedCell(e.drained, e.drainedBy, paint)],
    ["Shards", String(e.shardCount)],
    ...((e.notRunningShards ?? 0) > 0
      ? [["Not running", notRunningCell(e.notRunningShards ?? 0, paint)] as [string, string]]
      : []),
    ["Total load", formatLoad(e.totalLoad)],
    ["Metadata", formatPairs(e.metadata, "\n")],
  ], { palette: paint });
  if (e.shards.length === 0) return `${head}\n\nNo shards assigned.`;
  const stopped = e.shards.some((s) => s.notRunning);
  const shards = renderTable(
    [
      { header: "SHARD" },
      { header: "LOAD", align: "right" },
      { header: "REVISION", align: "right" },
      { header: "ASSIGNED AT" },
      { header: "AGE", align: "right" },
      ...(stopped ? [{ header: "RUNNING" }] : []),
    ],
    e.shards.map((s) => {
      const at = s.assignedAt === null ? null : Date.parse(s.assignedAt);
      return [
        s.key,
        formatLoad(s.load),
        String(s.assignedRevision),
        shortTime(at),
        ago(at, now),
        ...(stopped ? [s.notRunning ? paint.red("no") : "yes"] : []),
      ];
    }),
    { palette: paint },
  );
  return `${head}\n\n${shards}`;
}

/** A count of shards owned and not running: red when any. */
function notRunningCell(count: number, paint: typeof PLAIN): string {
  return count > 0 ? paint.red(String(count)) : "0";
}
