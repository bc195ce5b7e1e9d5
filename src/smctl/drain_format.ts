/**
 * Human output about executor drains: the drains table and the sentences of
 * `executor drain` and `executor undrain`.
 *
 * @module
 */
import { formatList, formatPairs } from "./cells.ts";
import { palette as makePalette } from "./colour.ts";
import type { DrainWaitResult } from "./drain_wait.ts";
import { formatDuration } from "./duration.ts";
import type { DrainModel } from "./model.ts";
import { renderTable } from "./table.ts";
import { ago, shortTime } from "./time.ts";

const PLAIN = makePalette(false);

/**
 * The executor drains table: id, target, reason, age, executors matched now.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { DrainModel } from "./model.ts";
 * import { drainTable } from "./drain_format.ts";
 *
 * const drain: DrainModel = {
 *   id: "id:a", kind: "id", executorId: "a", selector: null, reason: "INC-1",
 *   createdAt: "1970-01-01T00:00:01Z", matchedExecutorIds: ["a"],
 * };
 * assert.equal(drainTable([drain], 61_000), [
 *   "DRAIN  REASON  CREATED                        MATCHES NOW",
 *   "id:a   INC-1   1970-01-01 00:00:01Z (1m ago)  a",
 * ].join("\n"));
 * ```
 */
export function drainTable(drains: readonly DrainModel[], now: number, paint = PLAIN): string {
  if (drains.length === 0) return "No executor drains.";
  return renderTable(
    [
      { header: "DRAIN" },
      { header: "REASON" },
      { header: "CREATED" },
      { header: "MATCHES NOW" },
    ],
    drains.map((d) => {
      const created = d.createdAt === null ? null : Date.parse(d.createdAt);
      return [
        paint.cyan(d.id),
        d.reason === "" ? "-" : d.reason,
        created === null ? "-" : `${shortTime(created)} (${ago(created, now)})`,
        d.matchedExecutorIds.length === 0 ? paint.dim("none") : formatList(d.matchedExecutorIds),
      ];
    }),
    { palette: paint },
  );
}

/**
 * What a drain is about, for messages: `executor "a"` or `executors matching zone=b`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drainTarget } from "./drain_format.ts";
 *
 * assert.equal(drainTarget({ executorId: null, selector: { zone: "b" } }), "executors matching zone=b");
 * ```
 */
export function drainTarget(
  target: Pick<DrainModel, "executorId" | "selector">,
): string {
  return target.selector !== null
    ? `executors matching ${formatPairs(target.selector)}`
    : `executor ${JSON.stringify(target.executorId ?? "")}`;
}

/**
 * The sentence after a drain: what, which drain, why, what it matches now.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drainedText } from "./drain_format.ts";
 *
 * const text = drainedText("ns", {
 *   id: "id:a", kind: "id", executorId: "a", selector: null, reason: "", createdAt: null,
 *   matchedExecutorIds: ["a"],
 * });
 * assert.equal(text, 'Drained executor "a" in namespace "ns" (drain id:a); matches now: a.');
 * ```
 */
export function drainedText(namespace: string, drain: DrainModel): string {
  const matched = drain.matchedExecutorIds.length === 0
    ? "no executor yet"
    : drain.matchedExecutorIds.join(", ");
  const reason = drain.reason === "" ? "" : `, reason: ${drain.reason}`;
  return `Drained ${drainTarget(drain)} in namespace ${
    JSON.stringify(namespace)
  } (drain ${drain.id}${reason}); matches now: ${matched}.`;
}

/**
 * The sentence after `--wait`: empty, or what is left at the timeout.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drainWaitText } from "./drain_format.ts";
 *
 * const wait = {
 *   completed: false, initialShards: 4, remainingShards: 1, movedShards: 3, elapsedMs: 60_000,
 *   executors: ["a"], remaining: { a: 1 },
 * };
 * assert.equal(drainWaitText(wait), "a: 1 of 4 shards still held (a: 1) after 1m.");
 * assert.equal(
 *   drainWaitText({ ...wait, completed: true, remainingShards: 0, movedShards: 4, elapsedMs: 1_500 }),
 *   "a: empty; 4 of 4 shards moved off in 1.5s.",
 * );
 * ```
 */
export function drainWaitText(wait: DrainWaitResult): string {
  const who = wait.executors.length === 0 ? "The drained executors" : formatList(wait.executors);
  if (wait.completed) {
    return `${who}: empty; ${wait.movedShards} of ${wait.initialShards} shards moved off in ${
      formatDuration(wait.elapsedMs)
    }.`;
  }
  return `${who}: ${wait.remainingShards} of ${wait.initialShards} shards still held (${
    Object.entries(wait.remaining).map(([id, n]) => `${id}: ${n}`).join(", ")
  }) after ${formatDuration(wait.elapsedMs)}.`;
}

/**
 * The sentence after an undrain.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { undrainedText } from "./drain_format.ts";
 *
 * const text = undrainedText("ns", { executorId: "a", selector: null }, null);
 * assert.equal(text, 'Executor "a" was not drained in namespace "ns"; nothing to undo.');
 * ```
 */
export function undrainedText(
  namespace: string,
  target: Pick<DrainModel, "executorId" | "selector">,
  removed: DrainModel | null,
): string {
  const ns = JSON.stringify(namespace);
  if (removed !== null) return `Removed drain ${removed.id} in namespace ${ns}.`;
  const what = drainTarget(target);
  return `${what[0]!.toUpperCase()}${what.slice(1)} ${
    target.selector === null ? "was" : "were"
  } not drained in namespace ${ns}; nothing to undo.`;
}

/** A shard a dry run would move. */
export interface PlannedMoveModel {
  /** Shard key. */
  readonly shardKey: string;
  /** Its owner now. */
  readonly from: string;
  /** Where it would go; null when no executor could take it. */
  readonly to: string | null;
}

/**
 * `--dry-run`: a heading and one row per shard that would move.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plannedMovesText } from "./drain_format.ts";
 *
 * const text = plannedMovesText("Would move", [{ shardKey: "3", from: "a", to: "b" }]);
 * assert.equal(text.split("\n")[0], "Would move 1 shard:");
 * assert.match(text, /^3 +a +b$/m);
 * ```
 */
export function plannedMovesText(heading: string, moves: readonly PlannedMoveModel[]): string {
  const what = moves.length === 1 ? "1 shard" : `${moves.length} shards`;
  if (moves.length === 0) return `${heading} no shards.`;
  const table = renderTable(
    [{ header: "SHARD" }, { header: "FROM" }, { header: "TO" }],
    moves.map((m) => [m.shardKey, m.from, m.to ?? "(none)"]),
  );
  return `${heading} ${what}:\n${table}`;
}
