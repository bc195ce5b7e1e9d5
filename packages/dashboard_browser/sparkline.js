// @ts-check
/**
 * The shape of an executor's sparkline: an SVG path over a time window, with
 * breaks where it was not sampled. Shared: tested under Deno, loaded by the
 * page (`trends.js` draws the executors' sparklines with it).
 *
 * @module
 */

/**
 * A sparkline's path and the range of its values.
 *
 * @typedef {object} Sparkline
 * @property {string} d SVG path data (`M x y L x y ...`); empty when nothing was sampled in the window.
 * @property {number} min Smallest value drawn (0 when none).
 * @property {number} max Largest value drawn (0 when none); the top of the box.
 */

/**
 * Draws `values` (null: not sampled) taken at `times` into a `width` x
 * `height` box whose left edge is `fromMs` and right edge `toMs`; the bottom
 * is 0 and the top the largest value. A lone point between gaps is a short
 * dash, so it shows.
 *
 * @example
 * ```js
 * import assert from "node:assert/strict";
 * import { sparklinePath } from "./sparkline.js";
 *
 * const line = sparklinePath([0, 50, 100], [2, null, 4], 0, 100, 100, 10);
 * assert.equal(line.d, "M0 5h1M100 0h1");
 * assert.equal(line.max, 4);
 * ```
 *
 * @param {readonly number[]} times Sample times (ms), aligned with `values`.
 * @param {readonly (number | null)[]} values The samples; null where none was taken.
 * @param {number} fromMs Time at the left edge.
 * @param {number} toMs Time at the right edge.
 * @param {number} width Width of the box.
 * @param {number} height Height of the box.
 * @returns {Sparkline} The path and its range.
 */
export function sparklinePath(times, values, fromMs, toMs, width, height) {
  let min = Infinity;
  let max = 0;
  /** @type {(i: number) => number | undefined} the value at `i` when it is drawn */
  const shown = (i) => {
    const v = values[i];
    const t = times[i];
    return typeof v === "number" && Number.isFinite(v) && t !== undefined && t >= fromMs &&
        t <= toMs
      ? v
      : undefined;
  };
  for (let i = 0; i < values.length; i++) {
    const v = shown(i);
    if (v === undefined) continue;
    if (v > max) max = v;
    if (v < min) min = v;
  }
  const span = Math.max(1, toMs - fromMs);
  /** @param {number} n */
  const round = (n) => String(Math.round(n * 10) / 10);
  let d = "";
  let pen = false;
  for (let i = 0; i < values.length; i++) {
    const v = shown(i);
    if (v === undefined) {
      pen = false;
      continue;
    }
    const x = (/** @type {number} */ (times[i]) - fromMs) / span * width;
    const y = max > 0 ? height - v / max * height : height;
    d += (pen ? "L" : "M") + round(x) + " " + round(y);
    if (!pen && shown(i + 1) === undefined) d += "h1";
    pen = true;
  }
  return { d, min: min === Infinity ? 0 : min, max };
}
