/**
 * ANSI colour for human output: on only when writing to a terminal and
 * `NO_COLOR` is unset (https://no-color.org), never in `--json` mode.
 *
 * @module
 */

/** Styling functions; with colour off each returns its text unchanged. */
export interface Palette {
  /** Whether the functions add escape codes. */
  readonly enabled: boolean;
  /** Headers. */
  bold(text: string): string;
  /** Secondary detail. */
  dim(text: string): string;
  /** Healthy states. */
  green(text: string): string;
  /** States that need attention soon (draining). */
  yellow(text: string): string;
  /** Bad states (dead, drained). */
  red(text: string): string;
  /** Names and ids worth spotting. */
  cyan(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) =>
  text === "" ? text : `\x1b[${open}m${text}\x1b[${close}m`;
const same = (text: string) => text;

/**
 * A palette with colour on or off.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { palette } from "./colour.ts";
 *
 * assert.equal(palette(false).red("x"), "x");
 * assert.equal(palette(true).red("x"), "\x1b[31mx\x1b[39m");
 * ```
 */
export function palette(enabled: boolean): Palette {
  if (!enabled) {
    return { enabled, bold: same, dim: same, green: same, yellow: same, red: same, cyan: same };
  }
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    red: wrap(31, 39),
    cyan: wrap(36, 39),
  };
}

/** What decides whether to colour. */
export interface ColourSituation {
  /** stdout is a terminal. */
  readonly isTerminal: boolean;
  /** The value of `NO_COLOR`, if set (any value, even empty, turns colour off). */
  readonly noColor: string | undefined;
  /** Machine-readable output was asked for. */
  readonly json: boolean;
}

/**
 * True when human output should be coloured.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { colourWanted } from "./colour.ts";
 *
 * assert.ok(colourWanted({ isTerminal: true, noColor: undefined, json: false }));
 * assert.ok(!colourWanted({ isTerminal: true, noColor: "", json: false }));
 * ```
 */
export function colourWanted(situation: ColourSituation): boolean {
  return situation.isTerminal && situation.noColor === undefined && !situation.json;
}

// deno-lint-ignore no-control-regex -- matching ANSI escape sequences is the point
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/**
 * `text` without ANSI escape sequences.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stripAnsi } from "./colour.ts";
 *
 * assert.equal(stripAnsi("\x1b[1mID\x1b[22m"), "ID");
 * ```
 */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

/**
 * The number of terminal columns `text` takes: escape codes take none.
 * (Wide East Asian characters are counted as one column.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { visibleWidth } from "./colour.ts";
 *
 * assert.equal(visibleWidth("\x1b[31mred\x1b[39m"), 3);
 * ```
 */
export function visibleWidth(text: string): number {
  return [...stripAnsi(text)].length;
}
