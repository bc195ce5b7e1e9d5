/**
 * Go-style durations ("250ms", "1m30s") as used in the YAML configuration.
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
const NUMBER = /\d*(?:\.\d*)?/y;
const UNIT = /[^\d.]*/y;

/**
 * Parses a Go-style duration such as `"250ms"`, `"2s"`, `"1m30s"` or `"1.5h"`
 * into milliseconds. Units are `ns`, `us` (or `µs`), `ms`, `s`, `m` and `h`;
 * every number needs a unit, except the bare `"0"`. Sub-millisecond values
 * give fractional milliseconds; fractions finer than a nanosecond are dropped.
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
 * ```
 *
 * @param text The duration, e.g. `"1m30s"`.
 * @returns The duration in milliseconds.
 * @throws {TypeError} If `text` is not a well-formed duration.
 * @throws {RangeError} If the duration is negative or too large.
 */
export function parseDuration(text: string): number {
  const fail = (why: string) => `Cannot parse duration ${JSON.stringify(text)}: ${why}`;
  if (typeof text !== "string") {
    throw new TypeError(`Cannot parse duration: expected a string, got ${typeof text}`);
  }
  if (text === "") throw new TypeError(fail("the text is empty"));
  if (text === "0") return 0;
  if (text.startsWith("-")) throw new RangeError(fail("durations must not be negative"));

  let ns = 0n;
  let at = 0;
  while (at < text.length) {
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text)?.[0] ?? "";
    if (number === "" || number === ".") {
      throw new TypeError(
        fail(`expected a number followed by a unit (${UNITS}), such as "250ms" or "1m30s"`),
      );
    }
    UNIT.lastIndex = at + number.length;
    const unit = UNIT.exec(text)?.[0] ?? "";
    if (unit === "") throw new TypeError(fail(`missing unit (${UNITS}) after "${number}"`));
    const scale = NS_PER_UNIT[unit];
    if (scale === undefined) {
      throw new TypeError(fail(`unknown unit "${unit}" (expected ${UNITS})`));
    }
    const [whole = "", fraction = ""] = number.split(".");
    ns += BigInt(whole || "0") * scale;
    if (fraction !== "") ns += (BigInt(fraction) * scale) / 10n ** BigInt(fraction.length);
    at += number.length + unit.length;
  }

  const ms = Number(ns) / 1e6;
  if (ms > Number.MAX_SAFE_INTEGER) throw new RangeError(fail("the duration is too large"));
  return ms;
}

/**
 * Formats milliseconds as a Go-style duration, the inverse of
 * {@linkcode parseDuration}: `1500` → `"1.5s"`, `90000` → `"1m30s"`,
 * `250` → `"250ms"`, `0` → `"0s"`. Zero components are left out, so one hour
 * is `"1h"`. Values are rounded to the nearest nanosecond.
 *
 * @example Usage
 * ```ts
 * import { formatDuration } from "./duration.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatDuration(1_500), "1.5s");
 * assert.equal(formatDuration(60_000), "1m");
 * assert.equal(formatDuration(250), "250ms");
 * ```
 *
 * @param ms The duration in milliseconds.
 * @returns The duration as text, e.g. `"1m30s"`.
 * @throws {RangeError} If `ms` is not a finite number.
 */
export function formatDuration(ms: number): string {
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
