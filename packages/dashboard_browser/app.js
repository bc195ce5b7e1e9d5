// @ts-check
/**
 * The dashboard page's entry module (`<script type="module" src=...>`):
 * namespace tabs, the event stream with its connection state, the map and
 * the shard lookup; it binds the controls and starts the polls. The other
 * modules of this folder draw the parts.
 *
 * @module
 */
import { bindActions } from "./actions.js";
import { bindBanner, showBanner } from "./banner.js";
import { $, $as, badge, make } from "./dom.js";
import { formatAge, formatTime } from "./format.js";
import { renderLegend } from "./legend.js";
import { renderBrake } from "./brake.js";
import { createKeyLine } from "./key_line.js";
import { createShardMap } from "./shard_map.js";
import { renderDegraded, renderSummary } from "./summary.js";
import { renderDrains, renderExecutors, renderHandovers, renderSettings } from "./tables.js";
import { pollTimeline } from "./timeline.js";
import { pollTrends, whenTrendsChange } from "./trends.js";
import { ui } from "./ui.js";

/** @import { DashboardState } from "../../src/transport/http/dashboard/state.ts" */
/** @import { NamespaceInfo } from "./ui.js" */

const STALE_MS = 5000;

const shardMap = createShardMap($as("shard-map", HTMLCanvasElement), $("tooltip"), (key) => {
  $as("shard-find", HTMLInputElement).value = key;
  ui.selected = key;
  renderMap();
  renderLookup();
});

const keyLine = createKeyLine(
  $("line-section"),
  $as("key-line", HTMLCanvasElement),
  $("line-tooltip"),
);

/** @param {boolean} allowed */
function setActions(allowed) {
  document.body.classList.toggle("actions", allowed);
  $("actions-note").hidden = allowed;
}

async function loadNamespaces() {
  try {
    const res = await fetch("api/namespaces", { cache: "no-store" });
    if (!res.ok) throw new Error("HTTP " + res.status);
    /** @type {{ instanceId: string; allowActions: boolean; namespaces: NamespaceInfo[] }} */
    const body = await res.json();
    ui.namespaces = body.namespaces;
    $("instance").textContent = "served by " + body.instanceId;
    setActions(body.allowActions);
    renderTabs();
    const wanted = new URLSearchParams(location.hash.slice(1)).get("ns") ?? "";
    const names = body.namespaces.map((n) => n.name);
    select(names.includes(wanted) ? wanted : names[0] || "");
  } catch (err) {
    const why = /** @type {Error} */ (err).message;
    showBanner("error", "Cannot list namespaces (" + why + "); retrying in 3 s");
    setTimeout(loadNamespaces, 3000);
  }
}

function renderTabs() {
  const nav = $("namespaces");
  nav.replaceChildren();
  for (const ns of ui.namespaces) {
    const tab = make("button", "tab", ns.name);
    tab.type = "button";
    tab.setAttribute("role", "tab");
    tab.dataset.ns = ns.name;
    tab.title = ns.type + (ns.type === "fixed" ? ", " + ns.shardNum + " shards" : "");
    tab.addEventListener("click", () => select(ns.name));
    nav.append(tab);
  }
}

/** @param {string} name */
function select(name) {
  ui.ns = name;
  for (const tab of $("namespaces").children) {
    const ns = tab instanceof HTMLElement ? tab.dataset.ns : undefined;
    tab.setAttribute("aria-selected", String(ns === name));
  }
  if (!name) return showBanner("error", "This instance has no namespaces configured");
  history.replaceState(null, "", "#ns=" + encodeURIComponent(name));
  document.title = name + " - Shard Manager";
  ui.state = null;
  ui.lastAt = 0;
  ui.selected = "";
  $as("shard-find", HTMLInputElement).value = "";
  clearView();
  connect();
  pollTimeline();
  pollTrends();
}

function clearView() {
  for (const id of ["executor-rows", "drain-rows", "drained-list", "legend"]) {
    $(id).replaceChildren();
  }
  for (const id of ["leader", "executor-summary", "shard-summary", "load-summary"]) {
    $(id).textContent = "-";
  }
  shardMap.clear();
  keyLine.clear();
  renderLookup();
}

function connect() {
  if (ui.source) ui.source.close();
  clearTimeout(ui.retry);
  const source = new EventSource("api/namespaces/" + encodeURIComponent(ui.ns) + "/events");
  ui.source = source;
  source.addEventListener("state", (event) => {
    if (ui.source !== source) return;
    ui.state = /** @type {DashboardState} */ (JSON.parse(event.data));
    ui.lastAt = Date.now();
    render();
    renderConnection();
  });
  source.addEventListener("error", () => {
    if (ui.source !== source) return;
    if (source.readyState === EventSource.CLOSED) ui.retry = setTimeout(connect, 3000);
    renderConnection();
  });
}

function renderConnection() {
  const age = ui.lastAt ? Date.now() - ui.lastAt : Infinity;
  const open = ui.source && ui.source.readyState === EventSource.OPEN;
  const el = $("connection");
  const degraded = open && age < STALE_MS && ui.state && !ui.state.health.ready;
  if (degraded) badge(el, "bad", "DEGRADED");
  else if (open && age < STALE_MS) badge(el, "ok", "LIVE");
  else if (age < STALE_MS) badge(el, "warn", "RECONNECTING");
  else if (ui.lastAt) badge(el, "bad", "STALE: no update for " + formatAge(age));
  else badge(el, "warn", "CONNECTING");
  document.body.classList.toggle("stale", ui.lastAt > 0 && age >= STALE_MS);
  $("updated").textContent = ui.lastAt ? "updated " + formatTime(ui.lastAt) : "";
  renderDegraded(degraded ? ui.state : null);
}

function render() {
  const s = ui.state;
  if (!s) return;
  setActions(s.allowActions);
  renderSummary(s);
  renderBrake(s);
  renderSettings(s);
  renderExecutors(s);
  renderMap();
  keyLine.update(s);
  renderLegend(s);
  renderDrains(s);
  renderHandovers(s);
  renderLookup();
}

function renderMap() {
  if (!ui.state) return;
  shardMap.update(ui.state, ui.mode, ui.selected);
  const sh = ui.state.shards;
  $("map-note").textContent = sh.total > sh.keys.length
    ? "Showing the first " + sh.keys.length + " of " + sh.total + " shards."
    : "";
}

function renderLookup() {
  const out = $("shard-found");
  const key = ui.selected;
  const info = key && ui.state ? shardMap.lookup(key) : null;
  out.dataset.shard = key;
  out.dataset.owner = info ? info.owner : "";
  out.textContent = !key ? "" : info ? info.text : "Shard " + key + " is not in the map";
  const drained = !!ui.state && ui.state.drainedShards.includes(key);
  $("shard-drain-one").hidden = !key || drained;
  $("shard-undrain-one").hidden = !key || !drained;
}

bindBanner();
setInterval(renderConnection, 500);
for (const radio of document.querySelectorAll("input[name=colour]")) {
  if (!(radio instanceof HTMLInputElement)) continue;
  radio.addEventListener("change", () => {
    ui.mode = radio.value;
    renderMap();
    if (ui.state) renderLegend(ui.state);
  });
}
$as("shard-find", HTMLInputElement).addEventListener("input", (event) => {
  ui.selected = /** @type {HTMLInputElement} */ (event.target).value.trim();
  renderMap();
  renderLookup();
});
bindActions();
whenTrendsChange(() => {
  if (ui.state) renderExecutors(ui.state);
});
loadNamespaces();
pollTimeline();
