// @ts-check
/**
 * The timeline: the namespace's history of the last hour (`GET
 * api/namespaces/<ns>/history`), polled every few seconds. A bar per minute
 * shows how many shards moved; below it the events, newest first.
 *
 * @module
 */
import { $, badge, make } from "./dom.js";
import { formatTime } from "./format.js";
import { ui } from "./ui.js";

/** @import { HistoryEvent } from "../../src/core/history_event.ts" */

const TIMELINE_MS = 60 * 60 * 1000;
const TIMELINE_POLL_MS = 5000;
const timeline = {
  ns: "",
  /** @type {readonly HistoryEvent[]} */
  events: [],
  /** @type {number | ReturnType<typeof setTimeout>} */
  timer: 0,
  readAt: 0,
  error: "",
  errorNs: "",
};

/**
 * Reads the selected namespace's history now, then every 5 s. A failed read
 * shows "History unavailable: <why>" (the instance's own words), never "No
 * events".
 *
 * @example
 * ```js ignore
 * pollTimeline();
 * ```
 *
 * @returns {Promise<void>}
 */
export async function pollTimeline() {
  clearTimeout(timeline.timer);
  const ns = ui.ns;
  if (ns) {
    let error = "";
    try {
      const since = Date.now() - TIMELINE_MS;
      const url = "api/namespaces/" + encodeURIComponent(ns) + "/history?sinceMs=" + since;
      const res = await fetch(url, { cache: "no-store", signal: AbortSignal.timeout(8000) });
      /** @type {{ events?: readonly HistoryEvent[]; error?: string }} */
      const body = await res.json().catch(() => ({}));
      if (res.ok && ui.ns === ns) {
        Object.assign(timeline, { events: body.events, ns, readAt: Date.now() });
      } else if (!res.ok) error = body.error || "HTTP " + res.status;
    } catch (e) {
      error = "this instance did not answer (" + /** @type {Error} */ (e).message + ")";
    }
    if (ui.ns === ns) {
      Object.assign(timeline, { error, errorNs: ns });
      renderTimeline();
    }
  }
  timeline.timer = setTimeout(pollTimeline, TIMELINE_POLL_MS);
}

/** @type {Record<string, string>} */
const EVENT_KIND = {
  executor_joined: "ok",
  executor_lost: "bad",
  executor_drained: "warn",
  executor_undrained: "ok",
  shards_drained: "warn",
  shards_undrained: "ok",
  shards_quarantined: "bad",
  quarantine_withheld: "warn",
  leader_changed: "muted",
  assignment_changed: "muted",
  leader_lost: "warn",
  leader_rotations: "muted",
  store_unreachable: "bad",
  store_recovered: "ok",
  shards_not_running: "bad",
  shards_running_again: "ok",
  namespace_created: "ok",
  namespace_updated: "warn",
  namespace_deleted: "bad",
  operator_refused: "warn",
};

/**
 * " (by alice)" for an operator's change, unless its text names the caller already.
 *
 * @param {HistoryEvent} e The event.
 */
function byActor(e) {
  return e.actor && !e.text.includes(e.actor) ? " (by " + e.actor + ")" : "";
}

function renderTimeline() {
  const now = Date.now();
  const events = timeline.ns === ui.ns ? timeline.events : [];
  /** @type {number[]} */
  const minutes = new Array(60).fill(0);
  let moved = 0;
  for (const e of events) {
    if (e.type !== "assignment_changed") continue;
    const slot = 59 - Math.floor((now - e.atMs) / 60000);
    if (slot >= 0 && slot < 60) minutes[slot] = (minutes[slot] ?? 0) + (e.moves || 0);
    moved += e.moves || 0;
  }
  const most = Math.max(1, ...minutes);
  const bars = minutes.map((n, i) => {
    const bar = make("div", n ? "tl-bar" : "tl-bar tl-zero");
    bar.style.height = Math.max(2, Math.round((n / most) * 48)) + "px";
    bar.title = (59 - i) + " min ago: " + n + " shards moved";
    bar.dataset.moves = String(n);
    return bar;
  });
  $("timeline-chart").replaceChildren(...bars);
  $("timeline-summary").textContent = moved + " shards moved in " +
    events.filter((e) => e.type === "assignment_changed").length + " changes in the last hour";
  const rows = events.slice(-50).reverse().map((e) => {
    const li = make("li", "");
    li.dataset.type = e.type;
    const kind = make("span", "badge");
    badge(kind, EVENT_KIND[e.type] || "muted", e.type.replace("_", " "));
    li.append(
      make("span", "mono tl-time", formatTime(e.atMs)),
      kind,
      make("span", "", " " + e.text + byActor(e)),
    );
    return li;
  });
  $("timeline-rows").replaceChildren(...rows);
  const why = timeline.errorNs === ui.ns ? timeline.error : "";
  const note = $("timeline-unavailable");
  note.hidden = !why;
  note.textContent = !why ? "" : "History unavailable: " + why +
    (rows.length ? ". Showing the events read at " + formatTime(timeline.readAt) + "." : ".");
  $("timeline-empty").hidden = rows.length > 0 || !!why;
}
