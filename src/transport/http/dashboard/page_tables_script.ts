/**
 * Browser code of the tables (executors, executor drains, drained shards)
 * and the map legend. Rows are kept by key and updated in place, so a button
 * under the pointer survives the once-a-second refresh. A row keeps its parts
 * in one expando property, `sm` (plain names such as `cells` are taken by the DOM).
 *
 * Written as a raw string (no build step): no backticks or `${` inside.
 *
 * @module
 */

/** Defines the table renderers used by `render()`. */
export const TABLES_SCRIPT: string = String.raw`
function syncRows(container, items, keyOf, create, update) {
  const old = new Map();
  for (const child of Array.from(container.children)) old.set(child.dataset.key, child);
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
    const wanted = previous ? previous.nextSibling : container.firstChild;
    if (row !== wanted) container.insertBefore(row, wanted);
    previous = row;
  }
  for (const row of old.values()) row.remove();
}

function cellsOf(tr, names) {
  const cells = {};
  for (const name of names) {
    cells[name] = make("td", "col-" + name);
    tr.append(cells[name]);
  }
  return cells;
}

const STATUS_KIND = { ACTIVE: "ok", DRAINING: "warn", DRAINED: "muted", UNKNOWN: "warn" };

function createExecutorRow(e) {
  const tr = make("tr");
  tr.dataset.executor = e.executorId;
  const c = cellsOf(tr, ["id", "status", "health", "age", "shards", "load", "trend", "drained", "metadata", "action"]);
  const sm = { cells: c, swatch: make("span", "swatch"), status: make("span"), health: make("span") };
  sm.drainedTag = make("span", "badge muted drained-tag", "drained");
  c.id.append(sm.swatch, make("span", "mono", e.executorId), sm.drainedTag);
  sm.sparkShards = makeSpark("shards");
  sm.sparkLoads = makeSpark("loads");
  c.trend.append(sm.sparkShards, sm.sparkLoads);
  c.status.append(sm.status);
  c.health.append(sm.health);
  sm.button = make("button", "action", "Drain");
  sm.button.type = "button";
  sm.button.addEventListener("click", () => executorAction(sm.item));
  c.action.append(sm.button);
  tr.sm = sm;
  return tr;
}

function updateExecutorRow(tr, e) {
  const sm = tr.sm;
  const c = sm.cells;
  sm.item = e;
  sm.swatch.style.background = e.colour;
  badge(sm.status, STATUS_KIND[e.status] || "muted", e.status);
  if (e.liveness === "unknown") {
    badge(sm.health, "warn", "UNKNOWN since " + (e.unknownSinceMs ? formatTime(e.unknownSinceMs) : "start"));
  } else badge(sm.health, e.alive ? "ok" : "bad", e.alive ? "alive" : "STALE");
  c.age.textContent = formatAge(e.heartbeatAgeMs);
  c.shards.textContent = String(e.shardCount);
  c.load.textContent = formatLoad(e.totalLoad);
  c.drained.textContent = e.drainedBy.length ? e.drainedBy.join(", ") : "-";
  const meta = Object.entries(e.metadata).map(([k, v]) => k + "=" + v).join(", ");
  c.metadata.textContent = meta.length > 80 ? meta.slice(0, 79) + "..." : meta;
  c.metadata.title = meta;
  const byId = e.drainedBy.includes("id:" + e.executorId);
  sm.button.textContent = byId ? "Undrain" : "Drain";
  sm.button.dataset.action = byId ? "undrain" : "drain";
  tr.classList.toggle("row-bad", e.liveness === "stale" || (!e.liveness && !e.alive));
  const drained = e.drainedBy.length > 0 || e.status === "DRAINED";
  sm.drainedTag.hidden = !drained;
  tr.classList.toggle("row-drained", drained);
  drawTrend(sm, e.executorId);
}

function executorAction(e) {
  const id = e.executorId;
  if (e.drainedBy.includes("id:" + id)) {
    if (confirm("Undrain executor " + id + "? It can take shards again.")) {
      act("executors/undrain", { executorId: id }, "Undrain executor " + id);
    }
    return;
  }
  const reason = prompt("Drain executor " + id + "? Its shards move to other executors.\nReason (optional):", "");
  if (reason !== null) act("executors/drain", { executorId: id, reason }, "Drain executor " + id);
}

let shownSettings = "";
function renderSettings(s) {
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

function renderExecutors(s) {
  syncRows($("executor-rows"), s.executors, (e) => e.executorId, createExecutorRow, updateExecutorRow);
  $("executors-empty").hidden = s.executors.length > 0;
}

function createDrainRow(d) {
  const tr = make("tr");
  tr.dataset.drain = d.id;
  const sm = { cells: cellsOf(tr, ["target", "matched", "reason", "created", "action"]) };
  sm.cells.target.className = "mono";
  const button = make("button", "action", "Undrain");
  button.type = "button";
  button.addEventListener("click", () => {
    const d = sm.item;
    const body = d.executorId !== undefined ? { executorId: d.executorId } : { selector: d.selector };
    if (confirm("Remove drain " + d.id + "?")) act("executors/undrain", body, "Remove drain " + d.id);
  });
  sm.cells.action.append(button);
  tr.sm = sm;
  return tr;
}

function updateDrainRow(tr, d) {
  const c = tr.sm.cells;
  tr.sm.item = d;
  c.target.textContent = d.id;
  const shown = d.matched.slice(0, 8).join(", ") + (d.matched.length > 8 ? " ..." : "");
  c.matched.textContent = d.matched.length + (d.matched.length ? ": " + shown : " (none now)");
  c.reason.textContent = d.reason || "-";
  c.created.textContent = formatTime(d.createdAtMs);
}

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

function renderDrains(s) {
  syncRows($("drain-rows"), s.executorDrains, (d) => d.id, createDrainRow, updateDrainRow);
  $("drains-empty").hidden = s.executorDrains.length > 0;
  const keys = s.drainedShards.slice(0, 500);
  syncRows($("drained-list"), keys, (k) => k, createShardChip, () => {});
  $("drained-more").textContent = s.drainedShards.length > keys.length
    ? "and " + (s.drainedShards.length - keys.length) + " more" : "";
  $("drained-empty").hidden = s.drainedShards.length > 0;
}

function legendItem(colour, label, extra) {
  const item = make("span", "legend-item");
  const swatch = make("span", "swatch " + (extra || ""));
  if (colour) swatch.style.background = colour;
  item.append(swatch, make("span", "", label));
  return item;
}

function renderLegend(s) {
  const items = [];
  if (ui.mode === "load") {
    items.push(make("span", "", "load 0"));
    for (const colour of LOAD_COLOURS) items.push(legendItem(colour, "", "step"));
    items.push(make("span", "", formatLoad(s.summary.maxShardLoad) + " (hottest shard)"));
  } else {
    for (const e of s.executors.slice(0, 30)) {
      items.push(legendItem(e.colour, e.executorId + " (" + e.shardCount + ")"));
    }
    if (s.executors.length > 30) items.push(make("span", "", "and " + (s.executors.length - 30) + " more"));
  }
  items.push(legendItem("", "unowned (" + s.summary.unowned + ")", "unowned"));
  items.push(legendItem("", "drained (" + s.summary.drained + ")", "drained"));
  $("legend").replaceChildren(...items);
}
`;
