/**
 * The page's stylesheet: plain, dense and high-contrast for reading during an
 * incident. Status badges pair colour with text; nothing animates.
 *
 * @module
 */

/** CSS of the dashboard page. */
export const PAGE_STYLE: string = String.raw`
:root { color-scheme: light; --ink: #111827; --dim: #4b5563; --line: #d1d5db; --bg: #f9fafb; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; padding: 10px 16px; background: #111827; color: #f9fafb; }
header h1 { font-size: 18px; margin: 0 8px 0 0; }
header .meta { color: #d1d5db; font-size: 13px; }
nav { display: flex; flex-wrap: wrap; gap: 4px; padding: 8px 16px 0; border-bottom: 1px solid var(--line); background: #fff; }
.tab { font: inherit; padding: 6px 14px; border: 1px solid var(--line); border-bottom: none; background: #f3f4f6; cursor: pointer; border-radius: 6px 6px 0 0; }
.tab[aria-selected="true"] { background: #fff; font-weight: 700; border-color: #6b7280; }
main { padding: 12px 16px 32px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin-bottom: 12px; }
h2 { font-size: 16px; margin: 0 0 8px; }
h3 { font-size: 13px; margin: 0 0 4px; color: var(--dim); text-transform: uppercase; letter-spacing: .04em; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 12px; background: none; border: none; padding: 0; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; }
.card strong { font-size: 18px; }
.sub { color: var(--dim); font-size: 13px; }
.bad-text { color: #b91c1c; font-weight: 600; }
.warn-text { color: #b45309; font-weight: 600; }
#timeline-chart { display: flex; align-items: flex-end; gap: 2px; height: 50px; border-bottom: 1px solid var(--line); }
.tl-bar { flex: 1; background: #2563eb; border-radius: 2px 2px 0 0; }
.tl-zero { background: var(--line); }
#timeline-rows { list-style: none; padding: 0; margin: 6px 0 0; max-height: 260px; overflow-y: auto; font-size: 13px; }
#timeline-rows li { padding: 2px 0; border-bottom: 1px solid var(--line); }
.tl-time { color: var(--dim); margin-right: 6px; }
.mono { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 700; border: 1px solid; white-space: nowrap; }
.badge.ok { background: #dcfce7; color: #14532d; border-color: #16a34a; }
.badge.warn { background: #fef3c7; color: #78350f; border-color: #d97706; }
.badge.bad { background: #fee2e2; color: #7f1d1d; border-color: #dc2626; }
.badge.muted { background: #e5e7eb; color: #1f2937; border-color: #6b7280; }
.table-wrap { max-height: 420px; overflow: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e5e7eb; vertical-align: middle; }
th { position: sticky; top: 0; background: #f3f4f6; font-size: 12px; color: var(--dim); z-index: 1; }
td.col-age, td.col-shards, td.col-load, th.num { text-align: right; }
td.col-metadata { color: var(--dim); font-size: 12px; max-width: 320px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
tr.row-bad td { background: #fef2f2; }
tr.row-drained td { background: #f3f4f6; color: #6b7280; }
tr.row-drained td.col-drained { font-weight: 700; }
tr.row-drained .swatch, tr.row-drained .spark { opacity: .45; }
.drained-tag { margin-left: 6px; }
td.col-trend { white-space: nowrap; }
.spark { width: 122px; height: 20px; vertical-align: middle; margin-right: 6px; background: #f9fafb; border-bottom: 1px solid var(--line); }
.spark path { fill: none; stroke-width: 1.5; stroke-linecap: round; stroke-linejoin: round; }
.spark-shards path { stroke: #2563eb; }
.spark-loads path { stroke: #b45309; }
.settings { display: flex; flex-wrap: wrap; gap: 2px 18px; margin: 0; font-size: 13px; }
.settings div { white-space: nowrap; }
.settings dt { display: inline; color: var(--dim); }
.settings dt::after { content: ": "; }
.settings dd { display: inline; margin: 0; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; border: 1px solid rgba(0,0,0,.25); }
.swatch.unowned { background: #e5e7eb; border-color: #6b7280; }
.swatch.drained { background: #1f2937; }
.swatch.step { margin-right: 0; border-radius: 0; }
.toolbar { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; margin-bottom: 8px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: center; margin-bottom: 8px; font-size: 13px; }
.legend-item { white-space: nowrap; }
#map-wrap, #line-wrap { position: relative; }
#line-tooltip { position: absolute; pointer-events: none; background: #111827; color: #fff; padding: 4px 8px; border-radius: 4px; font-size: 12px; white-space: nowrap; z-index: 2; }
#shard-map { display: block; }
#tooltip { position: absolute; pointer-events: none; background: #111827; color: #fff; padding: 4px 8px; border-radius: 4px; font-size: 12px; white-space: nowrap; z-index: 2; }
#shard-found { font-weight: 600; }
.cols { display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: 16px; }
.chip { display: inline-flex; gap: 6px; align-items: center; padding: 1px 4px 1px 8px; margin: 2px; border: 1px solid #6b7280; border-radius: 10px; background: #f3f4f6; }
.chip-undrain { font-size: 11px; padding: 0 6px; }
.chip.quarantined { border-color: #b91c1c; background: #fee2e2; }
button { font: inherit; padding: 2px 10px; border: 1px solid #6b7280; border-radius: 4px; background: #fff; cursor: pointer; }
button:hover { background: #f3f4f6; }
button[data-action="drain"] { border-color: #b45309; color: #78350f; }
input[type=text] { font: inherit; padding: 2px 6px; border: 1px solid #9ca3af; border-radius: 4px; }
.inline { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-top: 8px; }
body:not(.actions) .action, body:not(.actions) .col-action { display: none !important; }
.banner { display: flex; gap: 12px; align-items: center; margin: 12px 16px 0; padding: 8px 12px; border-radius: 6px; border: 1px solid; font-weight: 600; }
.banner.ok { background: #dcfce7; border-color: #16a34a; }
.banner.error { background: #fee2e2; border-color: #dc2626; }
.banner button { margin-left: auto; }
#stale-note { display: none; margin: 12px 16px 0; padding: 8px 12px; background: #fee2e2; border: 1px solid #dc2626; border-radius: 6px; font-weight: 700; }
body.stale #stale-note { display: block; }
#degraded-note { margin: 12px 16px 0; padding: 8px 12px; background: #fef3c7; border: 1px solid #d97706; border-radius: 6px; font-weight: 700; }
#brake-note { margin: 12px 16px 0; padding: 8px 12px; border-radius: 6px; }
#brake-note.engaged { background: #fee2e2; border: 1px solid #b91c1c; }
#brake-note.lifted { background: #f3f4f6; border: 1px solid #6b7280; }
#brake-note .brake-unowned { margin-top: 4px; font-weight: 700; }
body.stale main { opacity: .55; }
.note { color: var(--dim); font-size: 13px; }
[hidden] { display: none !important; }
`;
