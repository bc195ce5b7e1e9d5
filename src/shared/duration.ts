/**
 * Durations as people write them: Go-style in the YAML configuration
 * (`"250ms"`, `"1m30s"`) and on smctl's command line (`--timeout 5s`), and
 * back to text, exactly (`"1m30s"`) or short for people (`"3m12s"`, `"4d1h"`).
 * The server's configuration and the client side (smctl) share this one
 * implementation; the two syntaxes and the two styles are options.
 *
 * @module
 */

const NS_PER_UNIT: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  "µs": 1_000n, // U+00B5 micro sign
  "μs": 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const UNITS = "ns, us, ms, s, m, h";
const COMMAND_LINE_UNITS: ReadonlySet<string> = new Set(["ms", "s", "m", "h"]);
const COMMAND_LINE_NUMBER = /^\d+(?:\.\d+)?$/;
const NUMBER = /\d*(?:\.\d*)?/y;
const UNIT = /[^\d.]*/y;

/** Options of {@linkcode parseDuration}. */
export interface ParseDurationOptions {
  /**
   * Which syntax to accept.
   *
   * - `"go"`, the configuration's: Go's `time.ParseDuration` without a sign.
   *   Units `ns`, `us` (or `µs`), `ms`, `s`, `m` and `h`; numbers such as
   *   `"1.5"`, `".5"` or `"5."`; the bare `"0"`; the result keeps fractions
   *   of a millisecond (down to a nanosecond). A negative duration is a
   *   `RangeError`, other mistakes a `TypeError` that says what was wrong.
   * - `"command-line"`, smctl's: units `ms`, `s`, `m` and `h`, numbers with
   *   digits on both sides of a point, spaces around the text ignored; the
   *   result is rounded to a whole millisecond and must be at least 1. Every
   *   mistake is a `TypeError`: "expected a duration such as 500ms, 5s or 2m,
   *   got …", or "expected a duration above zero, got …".
   *
   * @default {"go"}
   */
  readonly syntax?: "go" | "command-line";
}

/**
 * Parses a duration such as `"250ms"`, `"2s"`, `"1m30s"` or `"1.5h"` into
 * milliseconds. Every number needs a unit (in the Go syntax, except the bare
 * `"0"`); see {@linkcode ParseDurationOptions.syntax} for what each syntax
 * accepts.
 *
 * @example Usage
 * ```ts
 * import { parseDuration } from "./duration.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parseDuration("1m30s"), 90_000);
 * assert.equal(parseDuration("250ms"), 250);
 * assert.equal(parseDuration("500us"), 0.5);
 * assert.throws(() => parseDuration("60"), TypeError);
 * assert.equal(parseDuration(" 1.5s ", { syntax: "command-line" }), 1_500);
 * assert.throws(() => parseDuration("0s", { syntax: "command-line" }), /above zero/);
 * ```
 *
 * @param text The duration, e.g. `"1m30s"`.
 * @param options Which syntax to accept.
 * @returns The duration in milliseconds.
 * @throws {TypeError} If `text` is not a well-formed duration (or, on the
 * command line, is below one millisecond).
 * @throws {RangeError} In the Go syntax, if the duration is negative or too
 * large.
 */
export function parseDuration(text: string, options: ParseDurationOptions = {}): number {
  const syntax = options.syntax ?? "go";
  if (syntax !== "go" && syntax !== "command-line") {
    throw new TypeError(
      `Cannot parse duration: syntax must be "go" or "command-line", got ${JSON.stringify(syntax)}`,
    );
  }
  if (typeof text !== "string") {
    throw new TypeError(`Cannot parse duration: expected a string, got ${typeof text}`);
  }
  if (syntax === "go") return parseGo(text);
  const fail = () =>
    new TypeError(`expected a duration such as 500ms, 5s or 2m, got ${JSON.stringify(text)}`);
  const ns = scan(text.trim(), (number, unit) => {
    if (!COMMAND_LINE_NUMBER.test(number) || !COMMAND_LINE_UNITS.has(unit)) throw fail();
  }, fail);
  const ms = Math.round(Number(ns) / 1e6);
  if (ms < 1) throw new TypeError(`expected a duration above zero, got ${JSON.stringify(text)}`);
  return ms;
}

function parseGo(text: string): number {
  const fail = (why: string) => `Cannot parse duration ${JSON.stringify(text)}: ${why}`;
  if (text === "") throw new TypeError(fail("the text is empty"));
  if (text === "0") return 0;
  if (text.startsWith("-")) throw new RangeError(fail("durations must not be negative"));
  const ns = scan(text, (number, unit) => {
    if (number === "" || number === ".") {
      throw new TypeError(
        fail(`expected a number followed by a unit (${UNITS}), such as "250ms" or "1m30s"`),
      );
    }
    if (unit === "") throw new TypeError(fail(`missing unit (${UNITS}) after "${number}"`));
    if (NS_PER_UNIT[unit] === undefined) {
      throw new TypeError(fail(`unknown unit "${unit}" (expected ${UNITS})`));
    }
  }, () => new TypeError(fail("the text is empty")));
  const ms = Number(ns) / 1e6;
  if (ms > Number.MAX_SAFE_INTEGER) throw new RangeError(fail("the duration is too large"));
  return ms;
}

/**
 * The one grammar of both syntaxes: runs of a number then a unit, summed in
 * nanoseconds. `check` sees each run and throws what its syntax refuses;
 * `empty` makes the error for an empty text.
 */
function scan(text: string, check: (number: string, unit: string) => void, empty: () => Error) {
  if (text === "") throw empty();
  let ns = 0n;
  let at = 0;
  while (at < text.length) {
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text)?.[0] ?? "";
    UNIT.lastIndex = at + number.length;
    const unit = UNIT.exec(text)?.[0] ?? "";
    check(number, unit);
    const scale = NS_PER_UNIT[unit]!;
    const [whole = "", fraction = ""] = number.split(".");
    ns += BigInt(whole || "0") * scale;
    if (fraction !== "") ns += (BigInt(fraction) * scale) / 10n ** BigInt(fraction.length);
    at += number.length + unit.length;
  }
  return ns;
}

/** Options of {@linkcode formatDuration}. */
export interface FormatDurationOptions {
  /**
   * How to write it.
   *
   * - `"go"`: exactly, the inverse of {@linkcode parseDuration}: `1500` →
   *   `"1.5s"`, `90000` → `"1m30s"`, `250` → `"250ms"`, `0` → `"0s"`, with
   *   zero components left out (one hour is `"1h"`), rounded to the nearest
   *   nanosecond; a negative value keeps its sign.
   * - `"short"`: for people (smctl's output), with at most two units and one
   *   decimal below ten seconds: `"250ms"`, `"1.3s"`, `"42s"`, `"3m12s"`,
   *   `"2h5m"`, `"3d4h"`; a negative value shows as `"0ms"`.
   *
   * @default {"go"}
   */
  readonly style?: "go" | "short";
}

/**
 * Formats milliseconds as a duration, exactly (Go-style) or short for people;
 * see {@linkcode FormatDurationOptions.style}.
 *
 * @example Usage
 * ```ts
 * import { formatDuration } from "./duration.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatDuration(1_500), "1.5s");
 * assert.equal(formatDuration(60_000), "1m");
 * assert.equal(formatDuration(250), "250ms");
 * assert.equal(formatDuration(192_400, { style: "short" }), "3m12s");
 * assert.equal(formatDuration(1_250, { style: "short" }), "1.3s");
 * ```
 *
 * @param ms The duration in milliseconds.
 * @param options How to write it.
 * @returns The duration as text, e.g. `"1m30s"`.
 * @throws {RangeError} In the Go style, if `ms` is not a finite number.
 */
export function formatDuration(ms: number, options: FormatDurationOptions = {}): string {
  const style = options.style ?? "go";
  if (style === "short") return formatShort(ms);
  if (style !== "go") {
    throw new TypeError(
      `Cannot format duration: style must be "go" or "short", got ${JSON.stringify(style)}`,
    );
  }
  if (!Number.isFinite(ms)) {
    throw new RangeError(`Cannot format duration: expected a finite number, got ${ms}`);
  }
  if (ms < 0) return `-${formatDuration(-ms)}`;
  const ns = BigInt(Math.round(ms * 1e6));
  if (ns === 0n) return "0s";
  if (ns < 1_000n) return `${ns}ns`;
  if (ns < 1_000_000n) return `${decimal(ns, 1_000n)}us`;
  if (ns < 1_000_000_000n) return `${decimal(ns, 1_000_000n)}ms`;

  const hours = ns / 3_600_000_000_000n;
  const minutes = (ns / 60_000_000_000n) % 60n;
  const seconds = ns % 60_000_000_000n;
  return (hours > 0n ? `${hours}h` : "") +
    (minutes > 0n ? `${minutes}m` : "") +
    (seconds > 0n ? `${decimal(seconds, 1_000_000_000n)}s` : "");
}

/** `value / unit` as a decimal without trailing zeros, e.g. 1500n / 1000n → "1.5". */
function decimal(value: bigint, unit: bigint): string {
  const whole = value / unit;
  const rest = value % unit;
  if (rest === 0n) return `${whole}`;
  const digits = String(unit).length - 1;
  return `${whole}.${String(rest).padStart(digits, "0").replace(/0+$/, "")}`;
}

/** The `"short"` style: at most two units, one decimal below ten seconds. */
function formatShort(ms: number): string {
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
