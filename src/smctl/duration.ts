/**
 * Durations on smctl's command line (`--timeout 5s`, `--wait-timeout 2m`) and
 * in its output (`3m12s`): the shared parser and formatter
 * (`src/shared/duration.ts`, which the configuration uses too) in their
 * command-line syntax and short style.
 *
 * @module
 */
import {
  formatDuration as formatShared,
  parseDuration as parseShared,
} from "../shared/duration.ts";

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
  return parseShared(text, { syntax: "command-line" });
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
  return formatShared(ms, { style: "short" });
}
