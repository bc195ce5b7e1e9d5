// @ts-check
/**
 * The tables: settings, executors, handovers in flight, executor drains, drained shards. Rows are kept by key and updated in place, so a button under
 * the pointer survives the once-a-second refresh. A row keeps its parts in
 * one expando property, `sm` (plain names such as `cells` are taken by the
 * DOM).
 *
 * @module
 */
import { act, executorAction, shardAction } from "./actions.js";
import { $, badge, make } from "./dom.js";
import { formatAge, formatLoad, formatTime } from "./format.js";
import { drawTrend, makeSpark } from "./trends.js";

/** @import { DashboardState, ExecutorDrainRow, ExecutorRow } from "../../src/transport/http/dashboard/state.ts" */
/** @import { HandoverView } from "../../src/routing/views.ts" */
/** @import { SparkParts } from "./trends.js" */

/**
 * @typedef {SparkParts & {
 *   cells: Record<string, HTMLTableCellElement>;
 *   swatch: HTMLSpanElement; status: HTMLSpanElement; health: HTMLSpanElement;
 *   drainedTag: HTMLSpanElement; button: HTMLButtonElement; item?: ExecutorRow;
 * }} ExecutorParts
 * @typedef {HTMLTableRowElement & { sm: ExecutorParts }} ExecutorTr
 * @typedef {{ cells: Record<string, HTMLTableCellElement>; item?: ExecutorDrainRow }} DrainParts
 * @typedef {HTMLTableRowElement & { sm: DrainParts }} DrainTr
 */

/**
 * Makes `container`'s children the rows of `items`, in order: a row whose
 * key is known is updated in place, a new one created, a gone one removed.
 *
 * @template T
 * @template {HTMLElement} R
 * @param {HTMLElement} container The table body or list.
 * @param {readonly T[]} items What to show.
 * @param {(item: T) => string} keyOf An item's key.
 * @param {(item: T) => R} create A new row.
 * @param {(row: R, item: T) => void} update Shows `item` in its row.
 */
function syncRows(container, items, keyOf, create, update) {
  /** @type {Map<string | undefined, R>} */
  const old = new Map();
  for (const child of Array.from(container.children)) {
    const row = /** @type {R} */ (child);
    old.set(row.dataset.key, row);
  }
  /** @type {R | null} */
  let previous = null;
  for (const item of items) {
    const key = keyOf(item);
    let row = old.get(key);
    if (row) old.delete(key);
    else {
      row = create(item);
      row.dataset.key = key;
    }
    update(row, item);
    /** @type {ChildNode | null} */
    const wanted = previous ? previous.nextSibling : container.firstChild;
    if (row !== wanted) container.insertBefore(row, wanted);
    previous = row;
  }
  for (const row of old.values()) row.remove();
}

/** @param {HTMLTableRowElement} tr @param {readonly string[]} names */
function cellsOf(tr, names) {
  /** @type {Record<string, HTMLTableCellElement>} */
  const cells = {};
  for (const name of names) {
    const cell = make("td", "col-" + name);
    cells[name] = cell;
    tr.append(cell);
  }
  return cells;
}

/** @param {Record<string, HTMLTableCellElement>} cells @param {string} name */
function cell(cells, name) {
  return /** @type {HTMLTableCellElement} */ (cells[name]);
}

/** @type {Record<string, string>} */
const STATUS_KIND = { ACTIVE: "ok", DRAINING: "warn", DRAINED: "muted", UNKNOWN: "warn" };

/** @param {ExecutorRow} e @returns {ExecutorTr} */
function createExecutorRow(e) {
  const tr = /** @type {ExecutorTr} */ (make("tr"));
  tr.dataset.executor = e.executorId;
  const c = cellsOf(tr, [
    "id",
    "status",
    "health",
    "age",
    "shards",
    "load",
    "trend",
    "drained",
    "metadata",
    "action",
  ]);
  /** @type {ExecutorParts} */
  const sm = {
    cells: c,
    swatch: make("span", "swatch"),
    status: make("span"),
    health: make("span"),
    drainedTag: make("span", "badge muted drained-tag", "drained"),
    sparkShards: makeSpark("shards"),
    sparkLoads: makeSpark("loads"),
    button: make("button", "action", "Drain"),
  };
  cell(c, "id").append(sm.swatch, make("span", "mono", e.executorId), sm.drainedTag);
  cell(c, "trend").append(sm.sparkShards, sm.sparkLoads);
  cell(c, "status").append(sm.status);
  cell(c, "health").append(sm.health);
  sm.button.type = "button";
  sm.button.addEventListener("click", () => sm.item && executorAction(sm.item));
  cell(c, "action").append(sm.button);
  tr.sm = sm;
  return tr;
}

/** @param {ExecutorTr} tr @param {ExecutorRow} e */
function updateExecutorRow(tr, e) {
  const sm = tr.sm;
  const c = sm.cells;
  sm.item = e;
  sm.swatch.style.background = e.colour;
  badge(sm.status, STATUS_KIND[e.status] || "muted", e.status);
  if (e.liveness === "unknown") {
    const since = e.unknownSinceMs ? formatTime(e.unknownSinceMs) : "start";
    badge(sm.health, "warn", "UNKNOWN since " + since);
  } else badge(sm.health, e.alive ? "ok" : "bad", e.alive ? "alive" : "STALE");
  cell(c, "age").textContent = formatAge(e.heartbeatAgeMs);
  cell(c, "shards").textContent = String(e.shardCount);
  cell(c, "load").textContent = formatLoad(e.totalLoad);
  cell(c, "drained").textContent = e.drainedBy.length ? e.drainedBy.join(", ") : "-";
  const meta = Object.entries(e.metadata).map(([k, v]) => k + "=" + v).join(", ");
  cell(c, "metadata").textContent = meta.length > 80 ? meta.slice(0, 79) + "..." : meta;
  cell(c, "metadata").title = meta;
  const byId = e.drainedBy.includes("id:" + e.executorId);
  sm.button.textContent = byId ? "Undrain" : "Drain";
  sm.button.dataset.action = byId ? "undrain" : "drain";
  tr.classList.toggle("row-bad", e.liveness === "stale" || (!e.liveness && !e.alive));
  const drained = e.drainedBy.length > 0 || e.status === "DRAINED";
  sm.drainedTag.hidden = !drained;
  tr.classList.toggle("row-drained", drained);
  drawTrend(sm, e.executorId);
}

let shownSettings = "";

/**
 * Shows the namespace's settings in force (only when they changed).
 *
 * @param {DashboardState} s The picture.
 * @returns {void}
 */
export function renderSettings(s) {
  const text = JSON.stringify(s.settings || []);
  if (text === shownSettings) return;
  shownSettings = text;
  const items = (s.settings || []).map((x) => {
    const item = make("div");
    item.dataset.setting = x.key;
    item.append(make("dt", "", x.key), make("dd", "mono", x.value));
    return item;
  });
  $("settings").replaceChildren(...items);
  $("settings-section").hidden = items.length === 0;
}

/**
 * Shows the executors table.
 *
 * @param {DashboardState} s The picture.
 * @returns {void}
 */
export function renderExecutors(s) {
  const rows = $("executor-rows");
  syncRows(rows, s.executors, (e) => e.executorId, createExecutorRow, updateExecutorRow);
  $("executors-empty").hidden = s.executors.length > 0;
}

/** @param {ExecutorDrainRow} d @returns {DrainTr} */
function createDrainRow(d) {
  const tr = /** @type {DrainTr} */ (make("tr"));
  tr.dataset.drain = d.id;
  /** @type {DrainParts} */
  const sm = { cells: cellsOf(tr, ["target", "matched", "reason", "created", "action"]) };
  cell(sm.cells, "target").className = "mono";
  const button = make("button", "action", "Undrain");
  button.type = "button";
  button.addEventListener("click", () => {
    const d = sm.item;
    if (!d) return;
    const body = d.executorId !== undefined
      ? { executorId: d.executorId }
      : { selector: d.selector };
    if (confirm("Remove drain " + d.id + "?")) {
      act("executors/undrain", body, "Remove drain " + d.id);
    }
  });
  cell(sm.cells, "action").append(button);
  tr.sm = sm;
  return tr;
}

/** @param {DrainTr} tr @param {ExecutorDrainRow} d */
function updateDrainRow(tr, d) {
  const c = tr.sm.cells;
  tr.sm.item = d;
  cell(c, "target").textContent = d.id;
  const shown = d.matched.slice(0, 8).join(", ") + (d.matched.length > 8 ? " ..." : "");
  cell(c, "matched").textContent = d.matched.length +
    (d.matched.length ? ": " + shown : " (none now)");
  cell(c, "reason").textContent = d.reason || "-";
  cell(c, "created").textContent = formatTime(d.createdAtMs);
}

/** @param {string} key */
function createShardChip(key) {
  const chip = make("span", "chip");
  chip.dataset.shard = key;
  chip.append(make("span", "mono", key));
  const undo = make("button", "action chip-undrain", "undrain");
  undo.type = "button";
  undo.title = "Undrain shard " + key;
  undo.addEventListener("click", () => shardAction("undrain", [key]));
  chip.append(undo);
  return chip;
}

/**
 * Shows the executor drains and the drained shards.
 *
 * @param {DashboardState} s The picture.
 * @returns {void}
 */
export function renderDrains(s) {
  syncRows($("drain-rows"), s.executorDrains, (d) => d.id, createDrainRow, updateDrainRow);
  $("drains-empty").hidden = s.executorDrains.length > 0;
  const keys = s.drainedShards.slice(0, 500);
  const poison = new Set(s.quarantinedShards ?? []);
  syncRows($("drained-list"), keys, (k) => k, createShardChip, (chip, k) => {
    chip.classList.toggle("quarantined", poison.has(k));
    chip.title = poison.has(k)
      ? "Quarantined: a poison shard (too many executors failed with it); undrain to release it"
      : "Drained by an operator";
  });
  $("drained-more").textContent = s.drainedShards.length > keys.length
    ? "and " + (s.drainedShards.length - keys.length) + " more"
    : "";
  $("drained-empty").hidden = s.drainedShards.length > 0;
}

/**
 * A handover row.
 *
 * @returns {HTMLTableRowElement}
 */
function createHandoverRow() {
  const tr = make("tr", "");
  for (const name of ["shard", "from", "to", "since", "state"]) {
    tr.append(make("td", name === "state" ? "" : "mono", ""));
  }
  return tr;
}

/**
 * Shows `h` in its row.
 *
 * @param {HTMLTableRowElement} tr The row.
 * @param {HandoverView} h The handover.
 */
function updateHandoverRow(tr, h) {
  const [shard, from, to, since, state] = Array.from(tr.children);
  if (!shard || !from || !to || !since || !state) return;
  shard.textContent = h.shardKey;
  from.textContent = h.from;
  to.textContent = h.to;
  since.textContent = h.sinceMs === undefined
    ? "-"
    : formatTime(h.sinceMs) + " (" + formatAge(Date.now() - h.sinceMs) + " ago)";
  const tag = make("span", "", "");
  badge(tag, h.prepared ? "ok" : "muted", h.prepared ? "prepared, switching" : "preparing");
  state.replaceChildren(tag);
}

/**
 * Shows the warm handovers in flight (the section is hidden when there are none).
 *
 * @param {DashboardState} s The picture.
 * @returns {void}
 */
export function renderHandovers(s) {
  const items = s.handovers ?? [];
  $("handovers-section").hidden = s.summary.handovers === 0;
  syncRows($("handover-rows"), items, (h) => h.shardKey, createHandoverRow, updateHandoverRow);
  $("handovers-more").textContent = s.summary.handovers > items.length
    ? "and " + (s.summary.handovers - items.length) + " more"
    : "";
}
