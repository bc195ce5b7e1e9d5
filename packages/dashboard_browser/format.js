// @ts-check
/**
 * How the page writes numbers, ages and times: loads with three significant
 * digits, ages in the largest units that read well, times on a 24-hour clock.
 *
 * @module
 */

/**
 * A load: "-" when not a number, whole numbers from 100, else three
 * significant digits.
 *
 * @example
 * ```js
 * import assert from "node:assert/strict";
 * import { formatLoad } from "./format.js";
 *
 * assert.equal(formatLoad(1.23456), "1.23");
 * assert.equal(formatLoad(1234.5), "1235");
 * ```
 *
 * @param {number} x The load.
 * @returns {string} Its text.
 */
export function formatLoad(x) {
  if (!Number.isFinite(x)) return "-";
  if (x === 0 || Math.abs(x) >= 100) return x.toFixed(0);
  return String(Number(x.toPrecision(3)));
}

/**
 * An age: "never" for no time (not finite, or 9e15 ms and more), tenths of
 * a second under 10 s, then seconds, minutes and seconds, hours and minutes.
 *
 * @example
 * ```js
 * import assert from "node:assert/strict";
 * import { formatAge } from "./format.js";
 *
 * assert.equal(formatAge(1500), "1.5 s");
 * assert.equal(formatAge(200_000), "3 min 20 s");
 * assert.equal(formatAge(Infinity), "never");
 * ```
 *
 * @param {number} ms The age in milliseconds.
 * @returns {string} Its text.
 */
export function formatAge(ms) {
  if (!Number.isFinite(ms) || ms >= 9e15) return "never";
  if (ms < 10000) return (ms / 1000).toFixed(1) + " s";
  const s = Math.round(ms / 1000);
  if (s < 120) return s + " s";
  const m = Math.floor(s / 60);
  if (m < 120) return m + " min " + (s % 60) + " s";
  return Math.floor(m / 60) + " h " + (m % 60) + " min";
}

/**
 * A time of day in the browser's time zone, 24-hour clock.
 *
 * @example
 * ```js
 * import assert from "node:assert/strict";
 * import { formatTime } from "./format.js";
 *
 * assert.match(formatTime(Date.UTC(2025, 0, 1, 13, 5, 9)), /^\d{2}:\d{2}:\d{2}$/);
 * ```
 *
 * @param {number} ms Milliseconds since the epoch.
 * @returns {string} Its text.
 */
export function formatTime(ms) {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}
