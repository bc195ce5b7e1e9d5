/**
 * Browser code of the page itself: namespace tabs, the event stream with its
 * connection state, the summary cards, and the shard lookup. Operator
 * actions are in `page_actions_script.ts`, tables and legend in
 * `page_tables_script.ts`, the map in `page_map_script.ts`; all share one
 * script scope.
 *
 * Written as a raw string (no build step): no backticks or `${` inside.
 *
 * @module
 */

/** The page's main script: state, helpers and renderers; `loadNamespaces()` starts it. */
export const APP_SCRIPT: string = String.raw`
const $ = (id) => document.getElementById(id);
const STALE_MS = 5000;
const ui = { namespaces: [], ns: "", state: null, source: null, lastAt: 0, mode: "owner", selected: "", retry: 0 };

function make(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}
function badge(el, kind, label) {
  el.className = "badge " + kind;
  el.textContent = label;
}
function formatLoad(x) {
  if (!Number.isFinite(x)) return "-";
  if (x === 0 || Math.abs(x) >= 100) return x.toFixed(0);
  return String(Number(x.toPrecision(3)));
}
function formatAge(ms) {
  if (!Number.isFinite(ms) || ms >= 9e15) return "never";
  if (ms < 10000) return (ms / 1000).toFixed(1) + " s";
  const s = Math.round(ms / 1000);
  if (s < 120) return s + " s";
  const m = Math.floor(s / 60);
  if (m < 120) return m + " min " + (s % 60) + " s";
  return Math.floor(m / 60) + " h " + (m % 60) + " min";
}
function formatTime(ms) {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}

const shardMap = createShardMap($("shard-map"), $("tooltip"), (key) => {
  $("shard-find").value = key;
  ui.selected = key;
  renderMap();
  renderLookup();
});

function showBanner(kind, message) {
  $("banner").className = "banner " + kind;
  $("banner-text").textContent = message;
  $("banner").hidden = false;
}
$("banner-close").addEventListener("click", () => $("banner").hidden = true);

function setActions(allowed) {
  document.body.classList.toggle("actions", allowed);
  $("actions-note").hidden = allowed;
}

async function loadNamespaces() {
  try {
    const res = await fetch("api/namespaces", { cache: "no-store" });
    if (!res.ok) throw new Error("HTTP " + res.status);
    const body = await res.json();
    ui.namespaces = body.namespaces;
    $("instance").textContent = "served by " + body.instanceId;
    setActions(body.allowActions);
    renderTabs();
    const wanted = new URLSearchParams(location.hash.slice(1)).get("ns");
    const names = body.namespaces.map((n) => n.name);
    select(names.includes(wanted) ? wanted : names[0] || "");
  } catch (err) {
    showBanner("error", "Cannot list namespaces (" + err.message + "); retrying in 3 s");
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

function select(name) {
  ui.ns = name;
  for (const tab of $("namespaces").children) {
    tab.setAttribute("aria-selected", String(tab.dataset.ns === name));
  }
  if (!name) return showBanner("error", "This instance has no namespaces configured");
  history.replaceState(null, "", "#ns=" + encodeURIComponent(name));
  document.title = name + " - Shard Manager";
  ui.state = null;
  ui.lastAt = 0;
  ui.selected = "";
  $("shard-find").value = "";
  clearView();
  connect();
  pollTimeline();
  pollTrends();
}

function clearView() {
  for (const id of ["executor-rows", "drain-rows", "drained-list", "legend"]) $(id).replaceChildren();
  for (const id of ["leader", "executor-summary", "shard-summary", "load-summary"]) $(id).textContent = "-";
  shardMap.clear();
  renderLookup();
}

function connect() {
  if (ui.source) ui.source.close();
  clearTimeout(ui.retry);
  const source = new EventSource("api/namespaces/" + encodeURIComponent(ui.ns) + "/events");
  ui.source = source;
  source.addEventListener("state", (event) => {
    if (ui.source !== source) return;
    ui.state = JSON.parse(event.data);
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

// Why the page is degraded, in plain words; ages on the instance's clock (no skew with the browser's).
function renderDegraded(s) {
  const note = $("degraded-note");
  note.hidden = !s;
  if (!s) return;
  const h = s.health;
  const last = h.lastGoodReadMs;
  const now = s.generatedAtMs + (Date.now() - ui.lastAt);
  note.textContent = h.storeReachable
    ? "Degraded: this instance's cache does not follow the store yet, so what you see may be incomplete."
    : "Store unreachable since " + (last ? formatTime(last) + " (" + formatAge(now - last) + ")" : "this instance started") +
      "; liveness unknown; showing the last good read from " + (last ? formatTime(last) : "nowhere (none yet)") +
      ". Executors are not declared lost and nothing here changes until the store answers again.";
}
setInterval(renderConnection, 500);

function render() {
  const s = ui.state;
  if (!s) return;
  setActions(s.allowActions);
  renderSummary(s);
  renderSettings(s);
  renderExecutors(s);
  renderMap();
  renderLegend(s);
  renderDrains(s);
  renderLookup();
}

function renderSummary(s) {
  const h = s.health;
  if (h.ready) badge($("health"), "ok", "STORE OK");
  else if (!h.storeReachable) badge($("health"), "bad", "STORE UNREACHABLE" + (h.error ? ": " + h.error : ""));
  else badge($("health"), "bad", "CACHE NOT SYNCED");
  const l = s.leader;
  const who = (l.instanceName ? l.instanceName + " " : "") + (l.instanceId || "");
  const main = l.unknownSinceMs
    ? make("strong", "warn-text", "UNKNOWN since " + formatTime(l.unknownSinceMs))
    : l.instanceId
    ? make("strong", "mono", who + (l.instanceId === s.instanceId ? " (this instance)" : ""))
    : make("strong", "bad-text", l.error ? "UNKNOWN" : "NO LEADER");
  const lines = [main];
  if (l.unknownSinceMs && l.instanceId) lines.push(make("div", "sub mono", "last known: " + who));
  if (l.grpcAddress) lines.push(make("div", "sub mono", "gRPC " + l.grpcAddress + (l.httpAddress ? ", HTTP " + l.httpAddress : "")));
  if (l.instanceId) {
    let since = "term " + l.term;
    if (l.sinceMs) since += ", since " + formatTime(l.sinceMs) + " (" + formatAge(s.generatedAtMs - l.sinceMs) + " ago)";
    lines.push(make("div", "sub", since));
  }
  if (l.error) lines.push(make("div", "sub bad-text", "lookup failed: " + l.error));
  else if (l.checkedAtMs && s.generatedAtMs - l.checkedAtMs > 5000) {
    lines.push(make("div", "sub", "as of " + formatTime(l.checkedAtMs)));
  }
  $("leader").replaceChildren(...lines);
  const m = s.summary;
  const unknown = m.unknown || 0;
  const stale = m.executors - m.alive - unknown;
  const drained = s.executors.filter((e) => e.drainedBy.length > 0).length;
  const since = s.executors.find((e) => e.unknownSinceMs)?.unknownSinceMs;
  $("executor-summary").replaceChildren(
    unknown
      ? make("strong", "warn-text", unknown + " / " + m.executors + " UNKNOWN")
      : make("strong", "", m.alive + " / " + m.executors + " alive"),
    make(
      "div",
      stale ? "sub bad-text" : "sub",
      (unknown ? "store unreadable since " + (since ? formatTime(since) : "start") + "; " : "") +
        stale + " STALE, " + drained + " drained",
    ),
  );
  $("shard-summary").replaceChildren(
    make("strong", "", m.shards + " shards"),
    make("div", m.unowned || m.notRunning ? "sub bad-text" : "sub", m.owned + " owned, " + m.unowned + " UNOWNED, " + m.drained + " drained" + (m.notRunning ? ", " + m.notRunning + " not running" : "")),
  );
  $("load-summary").replaceChildren(
    make("strong", "", "total " + formatLoad(m.totalLoad)),
    make("div", "sub", "hottest shard " + formatLoad(m.maxShardLoad)),
  );
}

function renderMap() {
  if (!ui.state) return;
  shardMap.update(ui.state, ui.mode, ui.selected);
  const sh = ui.state.shards;
  $("map-note").textContent = sh.total > sh.keys.length
    ? "Showing the first " + sh.keys.length + " of " + sh.total + " shards." : "";
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

for (const radio of document.querySelectorAll("input[name=colour]")) {
  radio.addEventListener("change", () => {
    ui.mode = radio.value;
    renderMap();
    if (ui.state) renderLegend(ui.state);
  });
}
`;
