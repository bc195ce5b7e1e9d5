// @ts-check
/**
 * The shard map: one canvas, one cell per shard, coloured by owner or by
 * load; drained shards are dark with a white cross, unowned ones pale and
 * outlined, so neither depends on colour alone. Hovering shows a tooltip
 * (shard, owner, load); clicking selects a shard.
 *
 * @module
 */
import { DRAINED_COLOUR, LOAD_STEPS, loadBucket, loadPalette, UNOWNED_COLOUR } from "./colour.js";
import { formatLoad } from "./format.js";

/** @import { DashboardState } from "../../src/transport/http/dashboard/state.ts" */

/** The load scale of the map and its legend, idle first. */
export const LOAD_COLOURS = loadPalette(LOAD_STEPS);

/**
 * What the map says about one shard.
 *
 * @typedef {object} ShardInfo
 * @property {string} key Shard key.
 * @property {string} owner Its owner's id ("" when drained or unowned).
 * @property {number} [load] Its load, when it has an owner.
 * @property {string} text One line for people.
 */

/**
 * The map's controls.
 *
 * @typedef {object} ShardMap
 * @property {(state: DashboardState, mode: string, selected: string) => void} update Draws a picture.
 * @property {() => void} clear Empties the map.
 * @property {(key: string) => ShardInfo | null} lookup What the map says about a shard.
 */

/**
 * @typedef {object} View
 * @property {DashboardState} state
 * @property {string} mode
 * @property {string} selected
 * @property {Map<string, number>} index
 * @property {Set<string>} drained
 */

/**
 * Draws the map on `canvas`, with `tooltip` for hovering; `onSelect` gets
 * the key of a clicked shard.
 *
 * @example
 * ```js ignore
 * const map = createShardMap($as("shard-map", HTMLCanvasElement), $("tooltip"), select);
 * map.update(state, "owner", "");
 * ```
 *
 * @param {HTMLCanvasElement} canvas The map.
 * @param {HTMLElement} tooltip Shown over it while hovering.
 * @param {(key: string) => void} onSelect Called with a clicked shard's key.
 * @returns {ShardMap} Its controls.
 */
export function createShardMap(canvas, tooltip, onSelect) {
  const context = canvas.getContext("2d");
  if (!context) throw new Error("This browser cannot draw on a canvas");
  const ctx = context;
  /** @type {View | null} */
  let view = null;
  let layout = { cell: 12, cols: 1, rows: 1, gap: 1 };
  let hovered = -1;
  /** @type {{ x: number; y: number } | null} */
  let hoverAt = null;

  /** @param {number} n */
  function measure(n) {
    const width = Math.max(240, (canvas.parentElement?.clientWidth ?? 0) - 2);
    let cell = n <= 0 ? 24 : Math.floor(Math.sqrt((width * 360) / n));
    cell = Math.max(3, Math.min(28, cell));
    const cols = Math.max(1, Math.floor(width / cell));
    return { cell, cols, rows: Math.max(1, Math.ceil(n / cols)), gap: cell >= 7 ? 1 : 0 };
  }

  /** @param {View} v @param {number} i @returns {ShardInfo} */
  function describe(v, i) {
    const s = v.state.shards;
    const key = s.keys[i] ?? "";
    if (v.drained.has(key)) return { key, owner: "", text: "Shard " + key + ": DRAINED, no owner" };
    const owner = v.state.executors[s.owners[i] ?? -1];
    if (!owner) return { key, owner: "", text: "Shard " + key + ": UNOWNED" };
    const load = s.loads[i] ?? 0;
    return {
      key,
      owner: owner.executorId,
      load,
      text: "Shard " + key + ": owner " + owner.executorId + " (" + owner.status +
        (owner.alive ? "" : ", STALE") + "), load " + formatLoad(load),
    };
  }

  /** @param {View} v @param {number} i @returns {string} */
  function fillOf(v, i) {
    const s = v.state.shards;
    if (v.mode === "load") {
      const fraction = (s.loads[i] ?? 0) / v.state.summary.maxShardLoad;
      return LOAD_COLOURS[loadBucket(fraction, LOAD_COLOURS.length)] ?? UNOWNED_COLOUR;
    }
    return v.state.executors[s.owners[i] ?? -1]?.colour ?? UNOWNED_COLOUR;
  }

  /** @param {number} x @param {number} y @param {number} size */
  function drawDrained(x, y, size) {
    ctx.fillStyle = DRAINED_COLOUR;
    ctx.fillRect(x, y, size, size);
    if (size < 6) return;
    ctx.strokeStyle = "#ffffff";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(x + 2, y + 2);
    ctx.lineTo(x + size - 2, y + size - 2);
    ctx.moveTo(x + size - 2, y + 2);
    ctx.lineTo(x + 2, y + size - 2);
    ctx.stroke();
  }

  /** @param {number} x @param {number} y @param {number} size */
  function drawUnowned(x, y, size) {
    ctx.fillStyle = UNOWNED_COLOUR;
    ctx.fillRect(x, y, size, size);
    if (size < 4) return;
    ctx.strokeStyle = "#6b7280";
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, size - 1, size - 1);
  }

  function draw() {
    if (!view) return;
    const s = view.state.shards;
    const n = s.keys.length;
    layout = measure(n);
    const { cell, cols, rows, gap } = layout;
    const dpr = window.devicePixelRatio || 1;
    canvas.style.width = cols * cell + "px";
    canvas.style.height = rows * cell + "px";
    canvas.width = Math.round(cols * cell * dpr);
    canvas.height = Math.round(rows * cell * dpr);
    canvas.dataset.cell = String(cell);
    canvas.dataset.cols = String(cols);
    canvas.dataset.shards = String(n);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cols * cell, rows * cell);
    const size = cell - gap;
    const labels = size >= 20;
    ctx.font = "10px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (let i = 0; i < n; i++) {
      const x = (i % cols) * cell;
      const y = Math.floor(i / cols) * cell;
      const key = s.keys[i] ?? "";
      if (view.drained.has(key)) {
        drawDrained(x, y, size);
        continue;
      }
      if ((s.owners[i] ?? -1) < 0) {
        drawUnowned(x, y, size);
        continue;
      }
      ctx.fillStyle = fillOf(view, i);
      ctx.fillRect(x, y, size, size);
      if (labels && key.length <= 4) {
        ctx.lineWidth = 3;
        ctx.strokeStyle = "rgba(0,0,0,0.7)";
        ctx.strokeText(key, x + size / 2, y + size / 2);
        ctx.fillStyle = "#ffffff";
        ctx.fillText(key, x + size / 2, y + size / 2);
      }
    }
    const selected = view.index.get(view.selected);
    if (selected !== undefined) {
      const x = (selected % cols) * cell;
      const y = Math.floor(selected / cols) * cell;
      ctx.lineWidth = 2;
      ctx.strokeStyle = "#000000";
      ctx.strokeRect(x - 1, y - 1, size + 2, size + 2);
      ctx.strokeStyle = "#facc15";
      ctx.strokeRect(x + 1, y + 1, size - 2, size - 2);
    }
    showTooltip();
  }

  /** @param {MouseEvent} event */
  function indexAt(event) {
    const rect = canvas.getBoundingClientRect();
    const col = Math.floor((event.clientX - rect.left) / layout.cell);
    const row = Math.floor((event.clientY - rect.top) / layout.cell);
    if (col < 0 || col >= layout.cols || row < 0) return -1;
    const i = row * layout.cols + col;
    return view && i < view.state.shards.keys.length ? i : -1;
  }

  function showTooltip() {
    if (!view || hovered < 0 || hovered >= view.state.shards.keys.length || !hoverAt) {
      tooltip.hidden = true;
      return;
    }
    const info = describe(view, hovered);
    tooltip.textContent = info.text;
    tooltip.dataset.shard = info.key;
    tooltip.dataset.owner = info.owner;
    tooltip.style.left = hoverAt.x + 14 + "px";
    tooltip.style.top = hoverAt.y + 14 + "px";
    tooltip.hidden = false;
  }

  canvas.addEventListener("mousemove", (event) => {
    hovered = indexAt(event);
    const box = (canvas.parentElement ?? canvas).getBoundingClientRect();
    hoverAt = { x: event.clientX - box.left, y: event.clientY - box.top };
    canvas.style.cursor = hovered < 0 ? "default" : "pointer";
    showTooltip();
  });
  canvas.addEventListener("mouseleave", () => {
    hovered = -1;
    showTooltip();
  });
  canvas.addEventListener("click", (event) => {
    const i = indexAt(event);
    const key = view?.state.shards.keys[i];
    if (i >= 0 && key !== undefined) onSelect(key);
  });
  window.addEventListener("resize", draw);

  return {
    update(state, mode, selected) {
      const index = new Map(state.shards.keys.map((k, i) => [k, i]));
      view = { state, mode, selected, index, drained: new Set(state.drainedShards) };
      draw();
    },
    clear() {
      view = null;
      canvas.width = 0;
      canvas.height = 0;
      canvas.style.height = "0px";
      canvas.dataset.shards = "0";
      tooltip.hidden = true;
    },
    lookup(key) {
      if (!view) return null;
      const i = view.index.get(key);
      return i === undefined ? null : describe(view, i);
    },
  };
}
