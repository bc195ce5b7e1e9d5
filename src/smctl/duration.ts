/**
 * Durations on smctl's command line (`--timeout 5s`, `--wait-timeout 2m`) and
 * in its output (`3m12s`).
 *
 * @module
 */

const MS_PER_UNIT: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;

/**
 * Parses a duration made of numbers with units `ms`, `s`, `m` or `h`, such as
 * `"500ms"`, `"5s"`, `"1.5m"` or `"1m30s"`, into milliseconds (rounded to a
 * whole millisecond). A bare number is refused: `"5"` could mean anything.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDuration } from "./duration.ts";
 *
 * assert.equal(parseDuration("1m30s"), 90_000);
 * assert.equal(parseDuration("250ms"), 250);
 * ```
 *
 * @param text The duration as typed.
 * @returns Milliseconds, at least 1.
 * @throws {TypeError} If `text` is not such a duration, or is zero.
 */
export function parseDuration(text: string): number {
  const fail = () =>
    new TypeError(`expected a duration such as 500ms, 5s or 2m, got ${JSON.stringify(text)}`);
  const trimmed = text.trim();
  if (trimmed === "") throw fail();
  let ms = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < trimmed.length) {
    const match = PART.exec(trimmed);
    if (match === null) throw fail();
    ms += Number(match[1]) * (MS_PER_UNIT[match[2]!] ?? 0);
  }
  const rounded = Math.round(ms);
  if (rounded < 1) {
    throw new TypeError(`expected a duration above zero, got ${JSON.stringify(text)}`);
  }
  return rounded;
}

/**
 * Formats milliseconds for people, with at most two units: `"250ms"`,
 * `"1.2s"` (below 10 s), `"42s"`, `"3m12s"`, `"2h5m"`, `"3d4h"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatDuration } from "./duration.ts";
 *
 * assert.equal(formatDuration(192_000), "3m12s");
 * assert.equal(formatDuration(1_250), "1.3s");
 * ```
 *
 * @param ms A non-negative number of milliseconds (negative values show as 0).
 * @returns The short text.
 */
export function formatDuration(ms: number): string {
  const value = Math.max(0, ms);
  if (value < 1_000) return `${Math.round(value)}ms`;
  if (value < 10_000) {
    const tenths = Math.round(value / 100) / 10;
    return tenths >= 10 ? "10s" : `${tenths.toFixed(1).replace(/\.0$/, "")}s`;
  }
  const seconds = Math.floor(value / 1_000);
  if (seconds < 60) return `${seconds}s`;
  const pair = (big: number, bigUnit: string, small: number, smallUnit: string) =>
    small === 0 ? `${big}${bigUnit}` : `${big}${bigUnit}${small}${smallUnit}`;
  if (seconds < 3_600) return pair(Math.floor(seconds / 60), "m", seconds % 60, "s");
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1_440) return pair(Math.floor(minutes / 60), "h", minutes % 60, "m");
  const hours = Math.floor(minutes / 60);
  return pair(Math.floor(hours / 24), "d", hours % 24, "h");
}
