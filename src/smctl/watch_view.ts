/**
 * What `namespace watch` shows for one update: a frame for the terminal, a
 * line of text, or a line of JSON. Pure: the loop is in `namespace_watch.ts`.
 *
 * @module
 */
import { aliveCell, bar, statusCell } from "./cells.ts";
import { type Palette, palette as makePalette, stripAnsi, visibleWidth } from "./colour.ts";
import type { ExecutorModel } from "./model.ts";
import { renderTable } from "./table.ts";
import { shortTime } from "./time.ts";

/** One executor in the watch view. */
export interface WatchRow {
  /** Executor id. */
  readonly id: string;
  /** Reported status, null when the state call has not answered (yet). */
  readonly status: string | null;
  /** Whether it is alive, null when unknown. */
  readonly alive: boolean | null;
  /** Whether an operator drain applies. */
  readonly drained: boolean;
  /** Shards it owns, from the watch stream. */
  readonly shardCount: number;
}

/** The part of a `WatchNamespaceState` message the view uses. */
export interface WatchPicture {
  /** Executors with their shards. */
  readonly executors: readonly { executorId: string; shards: readonly unknown[] }[];
}

/**
 * Rows sorted by id: shard counts from the watch message, status from the
 * last namespace state (executors known to either appear).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { watchRows } from "./watch_view.ts";
 *
 * const rows = watchRows({ executors: [{ executorId: "a", shards: [{}, {}] }] }, undefined);
 * assert.equal(rows[0]?.shardCount, 2);
 * assert.equal(rows[0]?.status, null);
 * ```
 */
export function watchRows(
  picture: WatchPicture,
  states: readonly ExecutorModel[] | undefined,
): WatchRow[] {
  const byId = new Map((states ?? []).map((s) => [s.id, s]));
  const counts = new Map(picture.executors.map((e) => [e.executorId, e.shards.length]));
  const ids = [...new Set([...counts.keys(), ...byId.keys()])].sort();
  return ids.map((id) => {
    const state = byId.get(id);
    return {
      id,
      status: state?.status ?? null,
      alive: state?.alive ?? null,
      drained: state?.drained ?? false,
      shardCount: counts.get(id) ?? 0,
    };
  });
}

/** Options of {@linkcode watchFrame}. */
export interface FrameOptions {
  /** When the frame is drawn (local clock, ms). */
  readonly drawnAt: number;
  /** Styles. @default {palette(false)} */
  readonly palette?: Palette;
  /** Terminal size; longer frames are cut with a "more" line, wide lines are cut. */
  readonly size?: { readonly columns: number; readonly rows: number };
  /** A note for the header, e.g. `reconnecting`. */
  readonly note?: string;
}

/**
 * The lines of one terminal frame: a header, then a table with a bar of each
 * executor's share of shards.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { watchFrame } from "./watch_view.ts";
 *
 * const lines = watchFrame("ns", [], { drawnAt: 0 });
 * assert.ok(lines[0]?.startsWith("namespace ns"));
 * ```
 */
export function watchFrame(
  namespace: string,
  rows: readonly WatchRow[],
  options: FrameOptions,
): string[] {
  const paint = options.palette ?? makePalette(false);
  const assigned = rows.reduce((sum, r) => sum + r.shardCount, 0);
  const most = Math.max(0, ...rows.map((r) => r.shardCount));
  const note = options.note ? `  ${paint.yellow(options.note)}` : "";
  const header = `namespace ${paint.cyan(namespace)} · ${rows.length} executors · ${assigned} ` +
    `shards assigned · as of ${shortTime(options.drawnAt)} · Ctrl-C to exit${note}`;
  const table = rows.length === 0 ? ["No executors."] : renderTable(
    [
      { header: "EXECUTOR" },
      { header: "STATUS" },
      { header: "ALIVE" },
      { header: "DRAINED" },
      { header: "SHARDS", align: "right" },
      { header: "" },
    ],
    rows.map((r) => [
      r.id,
      r.status === null ? "?" : statusCell(r.status, paint),
      r.alive === null ? "?" : aliveCell(r.alive, paint),
      r.drained ? paint.red("yes") : "-",
      String(r.shardCount),
      bar(r.shardCount, most, 20).replace(/░+$/, ""),
    ]),
    { palette: paint },
  ).split("\n");
  let lines = [header, "", ...table];
  if (options.size) {
    const { columns, rows: height } = options.size;
    if (lines.length > height - 1) {
      const keep = Math.max(1, height - 2);
      lines = [...lines.slice(0, keep), `… ${lines.length - keep} more lines`];
    }
    lines = lines.map((line) => fit(line, columns));
  }
  return lines;
}

/**
 * One line of text per update, for logs: time, counts and `id=shards` pairs
 * (with the status when it is not ACTIVE, and `drained`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { watchLine } from "./watch_view.ts";
 *
 * const line = watchLine("ns", [{ id: "a", status: "ACTIVE", alive: true, drained: false, shardCount: 3 }], 0);
 * assert.equal(line, "1970-01-01T00:00:00.000Z namespace=ns executors=1 assigned=3 a=3");
 * ```
 */
export function watchLine(namespace: string, rows: readonly WatchRow[], at: number): string {
  const assigned = rows.reduce((sum, r) => sum + r.shardCount, 0);
  const cells = rows.map((r) => {
    const flags = [
      ...(r.status !== null && r.status !== "ACTIVE" ? [r.status] : []),
      ...(r.alive === false ? ["dead"] : []),
      ...(r.drained ? ["drained"] : []),
    ];
    return `${r.id}=${r.shardCount}${flags.length > 0 ? `(${flags.join(",")})` : ""}`;
  });
  return [
    new Date(at).toISOString(),
    `namespace=${namespace}`,
    `executors=${rows.length}`,
    `assigned=${assigned}`,
    ...cells,
  ].join(" ");
}

/**
 * One JSON object per update (printed compact, one per line).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { watchJson } from "./watch_view.ts";
 *
 * assert.equal(watchJson("ns", [], 0).assignedShards, 0);
 * ```
 */
export function watchJson(
  namespace: string,
  rows: readonly WatchRow[],
  at: number,
): { time: string; namespace: string; assignedShards: number; executors: WatchRow[] } {
  return {
    time: new Date(at).toISOString(),
    namespace,
    assignedShards: rows.reduce((sum, r) => sum + r.shardCount, 0),
    executors: rows.map((r) => ({ ...r })),
  };
}

function fit(line: string, columns: number): string {
  if (visibleWidth(line) <= columns) return line;
  return [...stripAnsi(line)].slice(0, Math.max(1, columns - 1)).join("") + "…";
}
