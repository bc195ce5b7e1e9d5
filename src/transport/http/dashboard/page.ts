/**
 * The dashboard page: one HTML document with its stylesheet inline (allowed
 * by hash) and its code in ES modules from `browser/`, served by this
 * instance (`scripts.ts`); a Content-Security-Policy allows scripts from its
 * own origin only (no inline script, no eval), its own style, and requests
 * to its own origin. Nothing comes from elsewhere.
 *
 * @module
 */
import { PAGE_STYLE } from "./page_style.ts";
import { ENTRY_SCRIPT } from "./scripts.ts";

/** The page and the headers to serve it with. */
export interface DashboardPage {
  /** The HTML document. */
  readonly html: string;
  /** Content type, CSP and caching headers. */
  readonly headers: Readonly<Record<string, string>>;
}

const BODY = `
<header>
  <h1>Shard Manager</h1>
  <span id="connection" class="badge warn">CONNECTING</span>
  <span id="health" class="badge muted">STORE ?</span>
  <span id="updated" class="meta"></span>
  <span id="instance" class="meta"></span>
</header>
<nav id="namespaces" role="tablist" aria-label="Namespaces"></nav>
<div id="banner" class="banner" role="status" hidden><span id="banner-text"></span>
  <button id="banner-close" type="button">dismiss</button></div>
<div id="stale-note" role="alert">No update from the service for several seconds: what you see may be out of date.</div>
<div id="degraded-note" role="alert" hidden></div>
<div id="brake-note" role="alert" hidden></div>
<main>
  <section class="cards" aria-label="Summary">
    <div class="card"><h3>Leader</h3><div id="leader">-</div></div>
    <div class="card"><h3>Executors</h3><div id="executor-summary">-</div></div>
    <div class="card"><h3>Shards</h3><div id="shard-summary">-</div></div>
    <div class="card"><h3>Load</h3><div id="load-summary">-</div></div>
  </section>
  <section id="settings-section" hidden>
    <h2>Settings <span class="note">in force for this namespace</span></h2>
    <dl id="settings" class="settings"></dl>
  </section>
  <section>
    <h2>Executors</h2>
    <div class="table-wrap"><table id="executors">
      <thead><tr><th>executor</th><th>status</th><th>health</th><th class="num">heartbeat age</th><th class="num">shards</th>
        <th class="num">load</th><th>shards and load, last hour</th><th>drained by</th><th>metadata</th>
        <th class="action">action</th></tr></thead>
      <tbody id="executor-rows"></tbody>
    </table></div>
    <p id="executors-empty" class="note">No executor has heartbeated into this namespace.</p>
    <p id="trends-note" class="note"></p>
  </section>
  <section id="line-section" hidden>
    <h2>Key line <span class="note">the hash line, left to right: slices coloured by owner (top) and load (bottom)</span></h2>
    <div id="line-wrap"><canvas id="key-line" aria-label="Key line: hover a slice for its range, owner and load"></canvas>
      <div id="line-tooltip" hidden></div></div>
  </section>
  <section>
    <h2>Shard map</h2>
    <div class="toolbar">
      <span>Colour by
        <label><input type="radio" name="colour" value="owner" checked> owner</label>
        <label><input type="radio" name="colour" value="load"> load</label></span>
      <label>Find shard <input id="shard-find" type="text" size="12" autocomplete="off" placeholder="key"></label>
      <span id="shard-found" role="status"></span>
      <button id="shard-drain-one" class="action" type="button" data-action="drain" hidden>Drain this shard</button>
      <button id="shard-undrain-one" class="action" type="button" hidden>Undrain this shard</button>
    </div>
    <div id="legend" class="legend"></div>
    <div id="map-wrap"><canvas id="shard-map" aria-label="Shard map: hover a cell for its shard, owner and load"></canvas>
      <div id="tooltip" hidden></div></div>
    <p id="map-note" class="note"></p>
  </section>
  <section id="handovers-section" hidden>
    <h2>Handovers in flight <span class="note">warm: prepared by the incoming executor while the owner serves</span></h2>
    <div class="table-wrap"><table id="handovers">
      <thead><tr><th>shard</th><th>from (serving)</th><th>to (preparing)</th><th>since</th><th>state</th></tr></thead>
      <tbody id="handover-rows"></tbody>
    </table></div>
    <p id="handovers-more" class="note"></p>
  </section>
  <section>
    <h2>Drains</h2>
    <div class="cols">
      <div>
        <h3>Executor drains</h3>
        <table><thead><tr><th>drain</th><th>matches now</th><th>reason</th><th>since</th>
          <th class="action"></th></tr></thead><tbody id="drain-rows"></tbody></table>
        <p id="drains-empty" class="note">No executor is drained by an operator.</p>
        <form id="selector-form" class="inline action">
          <input id="selector-input" type="text" size="22" placeholder="zone=b, rack=3" aria-label="Metadata selector">
          <input id="selector-reason" type="text" size="18" placeholder="reason" aria-label="Reason">
          <button type="submit" data-action="drain">Drain matching executors</button>
        </form>
      </div>
      <div>
        <h3>Drained shards</h3>
        <div id="drained-list"></div><span id="drained-more" class="note"></span>
        <p id="drained-empty" class="note">No shard is drained.</p>
        <div class="inline action">
          <input id="shards-input" type="text" size="22" placeholder="7, 9, 0-15" aria-label="Shard keys">
          <button id="shards-drain" type="button" data-action="drain">Drain shards</button>
          <button id="shards-undrain" type="button">Undrain shards</button>
        </div>
      </div>
    </div>
  </section>
  <section>
    <h2>Timeline <span class="note">last hour</span></h2>
    <div id="timeline-chart" aria-label="Shards moved per minute"></div>
    <p id="timeline-summary" class="note"></p>
    <p id="timeline-unavailable" class="bad-text" role="status" hidden></p>
    <ol id="timeline-rows"></ol>
    <p id="timeline-empty" class="note">No events in the last hour.</p>
  </section>
  <p id="actions-note" class="note">Drain and undrain are disabled on this instance; set
    <code>server.dashboardActions: true</code> in its configuration to allow them from this page.</p>
</main>`;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

/**
 * Builds the page and its headers (the CSP carries the hash of the inline
 * style, and allows scripts from the page's own origin).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dashboardPage } from "./page.ts";
 *
 * const page = await dashboardPage();
 * assert.ok(page.html.startsWith("<!doctype html>"));
 * ```
 */
export async function dashboardPage(): Promise<DashboardPage> {
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'sha256-${await sha256(PAGE_STYLE)}'`,
    "connect-src 'self'",
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shard Manager</title>
<link rel="icon" href="data:,">
<style>${PAGE_STYLE}</style>
</head>
<body>${BODY}
<script type="module" src="browser/${ENTRY_SCRIPT}"></script>
</body>
</html>
`;
  return {
    html,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": csp,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  };
}
