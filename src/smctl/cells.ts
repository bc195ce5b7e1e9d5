/**
 * Small formatters for table cells, shared by the command groups.
 *
 * @module
 */
import type { Palette } from "./colour.ts";

/**
 * A load with at most two decimals and no trailing zeros: `10`, `1.5`, `0.33`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatLoad } from "./cells.ts";
 *
 * assert.equal(formatLoad(1 / 3), "0.33");
 * assert.equal(formatLoad(10), "10");
 * ```
 */
export function formatLoad(load: number): string {
  if (!Number.isFinite(load)) return String(load);
  return String(Math.round(load * 100) / 100);
}

/**
 * Metadata as `k=v` pairs sorted by key and joined by `sep`; `-` when empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatPairs } from "./cells.ts";
 *
 * assert.equal(formatPairs({ zone: "b", addr: "h:1" }), "addr=h:1,zone=b");
 * ```
 */
export function formatPairs(pairs: Readonly<Record<string, string>>, sep = ","): string {
  const keys = Object.keys(pairs).sort();
  return keys.length === 0 ? "-" : keys.map((k) => `${k}=${pairs[k]}`).join(sep);
}

/**
 * A list of ids joined by `, `; `-` when empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatList } from "./cells.ts";
 *
 * assert.equal(formatList([]), "-");
 * assert.equal(formatList(["a", "b"]), "a, b");
 * ```
 */
export function formatList(items: readonly string[]): string {
  return items.length === 0 ? "-" : items.join(", ");
}

/**
 * An executor status, coloured: ACTIVE green, DRAINING and DRAINED yellow,
 * anything else (such as `UNKNOWN(7)`, a status this server does not know) red.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { palette } from "./colour.ts";
 * import { statusCell } from "./cells.ts";
 *
 * assert.equal(statusCell("ACTIVE", palette(false)), "ACTIVE");
 * ```
 */
export function statusCell(status: string, paint: Palette): string {
  if (status === "ACTIVE") return paint.green(status);
  if (status === "DRAINING" || status === "DRAINED") return paint.yellow(status);
  return paint.red(status);
}

/**
 * `yes`/`no` for aliveness: `no` in red.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { palette } from "./colour.ts";
 * import { aliveCell } from "./cells.ts";
 *
 * assert.equal(aliveCell(false, palette(false)), "no");
 * ```
 */
export function aliveCell(alive: boolean, paint: Palette, liveness?: string): string {
  if (liveness === "unknown") return paint.yellow("unknown");
  return alive ? "yes" : paint.red("no");
}

/**
 * The drained column: `-`, or `yes` in red followed by the drains' ids.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { palette } from "./colour.ts";
 * import { drainedCell } from "./cells.ts";
 *
 * assert.equal(drainedCell(true, ["id:a"], palette(false)), "yes (id:a)");
 * ```
 */
export function drainedCell(drained: boolean, by: readonly string[], paint: Palette): string {
  if (!drained) return "-";
  return by.length === 0 ? paint.red("yes") : `${paint.red("yes")} (${by.join(", ")})`;
}

/**
 * A proportional bar of `width` cells for `value` out of `max`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bar } from "./cells.ts";
 *
 * assert.equal(bar(5, 10, 4), "██░░");
 * ```
 */
export function bar(value: number, max: number, width: number): string {
  const filled = max <= 0 ? 0 : Math.min(width, Math.max(0, Math.round((value / max) * width)));
  return "█".repeat(filled) + "░".repeat(width - filled);
}
