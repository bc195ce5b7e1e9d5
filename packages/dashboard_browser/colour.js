// @ts-check
/**
 * Colours of the shard map: one per owner (categorical), and a sequential
 * scale for load. The page always pairs a colour with a text label (legend,
 * tooltip, table), so colour is never the only carrier of meaning. Shared:
 * the server colours owners in `state.ts`, the browser loads this file for
 * the load scale (`shard_map.js`, `legend.js`).
 *
 * @module
 */

/** Fill of a shard that has no owner and is not drained (drawn hollow). */
export const UNOWNED_COLOUR = "#e5e7eb";

/** Fill of a drained shard (drawn with a cross). */
export const DRAINED_COLOUR = "#1f2937";

/** Steps of the load colour scale on the page. */
export const LOAD_STEPS = 9;

/** Hue step between consecutive owners: the golden angle keeps neighbours apart. */
const GOLDEN_ANGLE = 137.508;

/**
 * The colour of the owner at `index` among a namespace's executors sorted by
 * id: hues a golden angle apart, alternating lightness so that neighbours
 * differ even when hues come close again.
 *
 * @example
 * ```js
 * import assert from "node:assert/strict";
 * import { ownerColour } from "./colour.js";
 *
 * assert.equal(ownerColour(0), "hsl(0 65% 45%)");
 * assert.notEqual(ownerColour(0), ownerColour(1));
 * ```
 *
 * @param {number} index Position of the owner among the executors sorted by id.
 * @returns {string} A CSS `hsl()` colour.
 */
export function ownerColour(index) {
  if (!Number.isInteger(index) || index < 0) {
    throw new RangeError(`Owner index must be a non-negative integer, got ${index}`);
  }
  const hue = Math.round((index * GOLDEN_ANGLE) % 360);
  const lightness = [45, 62, 35][index % 3];
  return `hsl(${hue} 65% ${lightness}%)`;
}

/** Stops of the load scale: pale yellow (idle) through orange to dark red (hottest). */
/** @type {readonly (readonly [number, number, number])[]} */
const LOAD_STOPS = [
  [0xff, 0xff, 0xcc],
  [0xfe, 0xb2, 0x4c],
  [0xf0, 0x3b, 0x20],
  [0x80, 0x00, 0x26],
];

/**
 * The load colour for `fraction` of the namespace's hottest shard, as `#rrggbb`;
 * values outside 0..1 are clamped.
 *
 * @example
 * ```js
 * import assert from "node:assert/strict";
 * import { loadColour } from "./colour.js";
 *
 * assert.equal(loadColour(0), "#ffffcc");
 * assert.equal(loadColour(1), "#800026");
 * ```
 *
 * @param {number} fraction Load over the hottest shard's load.
 * @returns {string} `#rrggbb`.
 */
export function loadColour(fraction) {
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const scaled = f * (LOAD_STOPS.length - 1);
  const i = Math.min(LOAD_STOPS.length - 2, Math.floor(scaled));
  const t = scaled - i;
  const from = /** @type {readonly [number, number, number]} */ (LOAD_STOPS[i]);
  const to = /** @type {readonly [number, number, number]} */ (LOAD_STOPS[i + 1]);
  /** @param {0 | 1 | 2} c */
  const channel = (c) => Math.round(from[c] + (to[c] - from[c]) * t).toString(16).padStart(2, "0");
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}

/**
 * `steps` load colours from idle to hottest; the page maps a shard to
 * `palette[loadBucket(load / max, steps)]`.
 *
 * @example
 * ```js
 * import assert from "node:assert/strict";
 * import { loadPalette } from "./colour.js";
 *
 * assert.equal(loadPalette(5).length, 5);
 * ```
 *
 * @param {number} steps How many colours, 2 to 256.
 * @returns {string[]} The colours, idle first.
 */
export function loadPalette(steps) {
  if (!Number.isInteger(steps) || steps < 2 || steps > 256) {
    throw new RangeError(`Load palette steps must be an integer from 2 to 256, got ${steps}`);
  }
  return Array.from({ length: steps }, (_, i) => loadColour(i / (steps - 1)));
}

/**
 * The palette index of a shard whose load is `fraction` of the hottest
 * shard's: 0 for no load (or no scale: a hottest load of 0 gives NaN or
 * Infinity), `steps - 1` for the hottest; evenly spaced in between.
 *
 * @example
 * ```js
 * import assert from "node:assert/strict";
 * import { loadBucket } from "./colour.js";
 *
 * assert.equal(loadBucket(0 / 10, 8), 0);
 * assert.equal(loadBucket(10 / 10, 8), 7);
 * assert.equal(loadBucket(5 / 0, 8), 0);
 * ```
 *
 * @param {number} fraction Load over the hottest shard's load.
 * @param {number} steps Size of the palette.
 * @returns {number} An index into the palette.
 */
export function loadBucket(fraction, steps) {
  if (!Number.isFinite(fraction) || !(fraction > 0)) return 0;
  return Math.min(steps - 1, Math.round(fraction * (steps - 1)));
}
