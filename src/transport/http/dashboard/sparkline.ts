/**
 * The shape of an executor's sparkline: an SVG path over a time window, with
 * breaks where it was not sampled. A plain function without references
 * outside itself, so the page can carry its source (`page.ts` joins
 * `sparklinePath.toString()` into the page script, as it does `loadBucket`).
 *
 * @module
 */

/** A sparkline's path and the range of its values. */
export interface Sparkline {
  /** SVG path data (`M x y L x y ...`); empty when nothing was sampled in the window. */
  readonly d: string;
  /** Smallest value drawn (0 when none). */
  readonly min: number;
  /** Largest value drawn (0 when none); the top of the box. */
  readonly max: number;
}

/**
 * Draws `values` (null: not sampled) taken at `times` into a `width` x
 * `height` box whose left edge is `fromMs` and right edge `toMs`; the bottom
 * is 0 and the top the largest value. A lone point between gaps is a short
 * dash, so it shows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sparklinePath } from "./sparkline.ts";
 *
 * const line = sparklinePath([0, 50, 100], [2, null, 4], 0, 100, 100, 10);
 * assert.equal(line.d, "M0 5h1M100 0h1");
 * assert.equal(line.max, 4);
 * ```
 */
export function sparklinePath(
  times: readonly number[],
  values: readonly (number | null)[],
  fromMs: number,
  toMs: number,
  width: number,
  height: number,
): Sparkline {
  let min = Infinity;
  let max = 0;
  const shown = (i: number) => {
    const v = values[i];
    const t = times[i];
    return typeof v === "number" && Number.isFinite(v) && t !== undefined && t >= fromMs &&
      t <= toMs;
  };
  for (let i = 0; i < values.length; i++) {
    if (!shown(i)) continue;
    const v = values[i] as number;
    if (v > max) max = v;
    if (v < min) min = v;
  }
  const span = Math.max(1, toMs - fromMs);
  const round = (n: number) => String(Math.round(n * 10) / 10);
  let d = "";
  let pen = false;
  for (let i = 0; i < values.length; i++) {
    if (!shown(i)) {
      pen = false;
      continue;
    }
    const x = ((times[i] as number) - fromMs) / span * width;
    const y = max > 0 ? height - (values[i] as number) / max * height : height;
    d += (pen ? "L" : "M") + round(x) + " " + round(y);
    if (!pen && !shown(i + 1)) d += "h1";
    pen = true;
  }
  return { d, min: min === Infinity ? 0 : min, max };
}
