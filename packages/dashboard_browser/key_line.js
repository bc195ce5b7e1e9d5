// @ts-check
/**
 * The key line of a key-range namespace: the 64-bit hash line as one strip,
 * each slice as wide as its share of the line, coloured by its owner (top
 * band) and by its load (bottom band), so a hot slice and the executor that
 * holds it show at a glance. A hot key's slice is a single point: drawn at
 * least 2 px wide and marked with a tick. Hovering shows the slice, its
 * range, owner and load.
 *
 * @module
 */
import { LOAD_STEPS, loadBucket, loadPalette, UNOWNED_COLOUR } from "./colour.js";
import { formatLoad } from "./format.js";

/** @import { DashboardState } from "../../src/transport/http/dashboard/state.ts" */

const LOAD_COLOURS = loadPalette(LOAD_STEPS);
const HEIGHT = 36;

/**
 * The line's controls.
 *
 * @typedef {object} KeyLine
 * @property {(state: DashboardState) => void} update Draws a picture (hides the strip when it has no slices).
 * @property {() => void} clear Empties and hides the strip.
 */

/**
 * Draws the line on `canvas` (inside `section`, shown only for key-range
 * namespaces), with `tooltip` for hovering.
 *
 * @example
 * ```js ignore
 * const line = createKeyLine($("line-section"), $as("key-line", HTMLCanvasElement), $("line-tooltip"));
 * line.update(state);
 * ```
 *
 * @param {HTMLElement} section Hidden unless the namespace has slices.
 * @param {HTMLCanvasElement} canvas The strip.
 * @param {HTMLElement} tooltip Shown over it while hovering.
 * @returns {KeyLine} Its controls.
 */
export function createKeyLine(section, canvas, tooltip) {
  const context = canvas.getContext("2d");
  if (!context) throw new Error("This browser cannot draw on a canvas");
  const ctx = context;
  /** @type {DashboardState | null} */
  let state = null;
  /** @type {{ x: number; w: number; i: number }[]} */
  let boxes = [];

  function draw() {
    const s = state;
    const line = s?.line;
    section.hidden = !line;
    if (!s || !line) return;
    const width = Math.max(240, (canvas.parentElement?.clientWidth ?? 0) - 2);
    const dpr = window.devicePixelRatio || 1;
    canvas.style.width = width + "px";
    canvas.style.height = HEIGHT + "px";
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(HEIGHT * dpr);
    canvas.dataset.slices = String(line.keys.length);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, HEIGHT);
    const index = new Map(s.shards.keys.map((k, i) => [k, i]));
    const maxLoad = s.summary.maxShardLoad || 1;
    boxes = [];
    for (let j = 0; j < line.keys.length; j++) {
      const i = index.get(line.keys[j] ?? "") ?? -1;
      const x = (line.starts[j] ?? 0) * width;
      const w = Math.max(2, ((line.ends[j] ?? 0) - (line.starts[j] ?? 0)) * width);
      const owner = s.executors[s.shards.owners[i] ?? -1];
      ctx.fillStyle = owner?.colour ?? UNOWNED_COLOUR;
      ctx.fillRect(x, 0, w, HEIGHT / 2);
      const fraction = (s.shards.loads[i] ?? 0) / maxLoad;
      ctx.fillStyle = LOAD_COLOURS[loadBucket(fraction, LOAD_COLOURS.length)] ?? UNOWNED_COLOUR;
      ctx.fillRect(x, HEIGHT / 2, w, HEIGHT / 2);
      if ((line.ends[j] ?? 0) - (line.starts[j] ?? 0) < 1e-9) {
        ctx.fillStyle = "#111827"; // a hot key's own slice: a tick above and below
        ctx.fillRect(x, 0, 2, 4);
        ctx.fillRect(x, HEIGHT - 4, 2, 4);
      }
      boxes.push({ x, w, i: j });
    }
  }

  /** @param {number} j */
  function describe(j) {
    const s = state;
    const line = s?.line;
    if (!s || !line) return "";
    const key = line.keys[j] ?? "";
    const i = s.shards.keys.indexOf(key);
    const owner = s.executors[s.shards.owners[i] ?? -1];
    const start = line.starts[j] ?? 0, end = line.ends[j] ?? 0;
    const share = (end - start) * 100;
    return "Slice " + key + ": " + (share < 0.01 ? "one key" : share.toFixed(2) + "% of the line") +
      ", owner " + (owner ? owner.executorId : "none") + ", load " +
      formatLoad(s.shards.loads[i] ?? 0);
  }

  canvas.addEventListener("mousemove", (event) => {
    const rect = canvas.getBoundingClientRect();
    const x = event.clientX - rect.left;
    // The last box that starts at or before x (a hot key's sliver is found too).
    let found = -1;
    for (const b of boxes) if (b.x <= x && x <= b.x + b.w) found = b.i;
    if (found < 0) return void (tooltip.hidden = true);
    tooltip.textContent = describe(found);
    tooltip.hidden = false;
    tooltip.style.left = Math.min(x + 12, rect.width - 200) + "px";
    tooltip.style.top = HEIGHT + 4 + "px";
  });
  canvas.addEventListener("mouseleave", () => void (tooltip.hidden = true));
  globalThis.addEventListener("resize", draw);

  return {
    update(next) {
      state = next;
      draw();
    },
    clear() {
      state = null;
      boxes = [];
      section.hidden = true;
    },
  };
}
