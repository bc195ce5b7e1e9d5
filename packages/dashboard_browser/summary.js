// @ts-check
/**
 * The summary cards (store health, leader, executors, shards, load) and the
 * note that says, in plain words, why the page is degraded.
 *
 * @module
 */
import { $, badge, make } from "./dom.js";
import { formatAge, formatLoad, formatTime } from "./format.js";
import { ui } from "./ui.js";

/** @import { DashboardState } from "../../src/transport/http/dashboard/state.ts" */

/**
 * Why the page is degraded (hidden when `s` is null). Ages are on the
 * instance's clock, so there is no skew with the browser's.
 *
 * @example
 * ```js ignore
 * renderDegraded(ui.state);
 * ```
 *
 * @param {DashboardState | null} s The last picture, when degraded.
 * @returns {void}
 */
export function renderDegraded(s) {
  const note = $("degraded-note");
  note.hidden = !s;
  if (!s) return;
  const h = s.health;
  const last = h.lastGoodReadMs;
  const now = s.generatedAtMs + (Date.now() - ui.lastAt);
  note.textContent = h.storeReachable
    ? "Degraded: this instance's cache does not follow the store yet, so what you see may be incomplete."
    : "Store unreachable since " +
      (last ? formatTime(last) + " (" + formatAge(now - last) + ")" : "this instance started") +
      "; liveness unknown; showing the last good read from " +
      (last ? formatTime(last) : "nowhere (none yet)") +
      ". Executors are not declared lost and nothing here changes until the store answers again.";
}

/** @param {DashboardState} s */
function renderLeader(s) {
  const l = s.leader;
  const who = (l.instanceName ? l.instanceName + " " : "") + (l.instanceId || "");
  const main = l.unknownSinceMs
    ? make("strong", "warn-text", "UNKNOWN since " + formatTime(l.unknownSinceMs))
    : l.instanceId
    ? make("strong", "mono", who + (l.instanceId === s.instanceId ? " (this instance)" : ""))
    : make("strong", "bad-text", l.error ? "UNKNOWN" : "NO LEADER");
  const lines = [main];
  if (l.unknownSinceMs && l.instanceId) lines.push(make("div", "sub mono", "last known: " + who));
  if (l.grpcAddress) {
    const http = l.httpAddress ? ", HTTP " + l.httpAddress : "";
    lines.push(make("div", "sub mono", "gRPC " + l.grpcAddress + http));
  }
  if (l.instanceId) {
    let since = "term " + l.term;
    if (l.sinceMs) {
      since += ", since " + formatTime(l.sinceMs) + " (" + formatAge(s.generatedAtMs - l.sinceMs) +
        " ago)";
    }
    lines.push(make("div", "sub", since));
  }
  if (l.error) lines.push(make("div", "sub bad-text", "lookup failed: " + l.error));
  else if (l.checkedAtMs && s.generatedAtMs - l.checkedAtMs > 5000) {
    lines.push(make("div", "sub", "as of " + formatTime(l.checkedAtMs)));
  }
  $("leader").replaceChildren(...lines);
}

/**
 * Fills the summary cards from a picture.
 *
 * @example
 * ```js ignore
 * renderSummary(ui.state);
 * ```
 *
 * @param {DashboardState} s The picture.
 * @returns {void}
 */
export function renderSummary(s) {
  const h = s.health;
  if (h.ready) badge($("health"), "ok", "STORE OK");
  else if (!h.storeReachable) {
    badge($("health"), "bad", "STORE UNREACHABLE" + (h.error ? ": " + h.error : ""));
  } else badge($("health"), "bad", "CACHE NOT SYNCED");
  renderLeader(s);
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
    make(
      "div",
      m.unowned || m.notRunning || m.quarantined ? "sub bad-text" : "sub",
      m.owned + " owned, " + m.unowned + " UNOWNED, " + m.drained + " drained" +
        (m.quarantined ? " (" + m.quarantined + " QUARANTINED)" : "") +
        (m.notRunning ? ", " + m.notRunning + " not running" : "") +
        (m.handovers ? ", " + m.handovers + " handing over" : ""),
    ),
  );
  $("load-summary").replaceChildren(
    make("strong", "", "total " + formatLoad(m.totalLoad)),
    make("div", "sub", "hottest shard " + formatLoad(m.maxShardLoad)),
  );
}
