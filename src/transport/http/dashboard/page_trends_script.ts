/**
 * The executors' sparklines: each executor's owned shards (blue) and
 * reported load (amber) over the last hour, from `GET
 * api/namespaces/<ns>/trends` (sampled by the instance, see
 * `executor_samples.ts`), polled at the sampling interval (at most every
 * 15 s). The x axis spans the samples held, up to an hour (a young instance
 * has less), and the y axis runs from 0 to the line's largest value. Lines break where an executor was not sampled (it was not there, or
 * the store was unreachable). Drawn by `sparklinePath` from `sparkline.ts`.
 *
 * Written as a raw string (no build step): no backticks or `${` inside.
 *
 * @module
 */

/** Defines `pollTrends`, `makeSpark` and `drawTrend` (used by the executor rows). */
export const TRENDS_SCRIPT: string = String.raw`
const SVG_NS = "http://www.w3.org/2000/svg";
const SPARK_W = 120;
const SPARK_H = 18;
const trends = { ns: "", times: [], windowMs: 3600000, byId: new Map(), version: 0, timer: 0 };

async function pollTrends() {
  clearTimeout(trends.timer);
  const ns = ui.ns;
  let next = 15000;
  if (ns) {
    try {
      const res = await fetch("api/namespaces/" + encodeURIComponent(ns) + "/trends", { cache: "no-store" });
      if (res.ok && ui.ns === ns) {
        const body = await res.json();
        Object.assign(trends, { ns, times: body.times, windowMs: body.windowMs || 3600000 });
        trends.byId = new Map(body.executors.map((e) => [e.executorId, e]));
        trends.version++;
        if (body.intervalMs > 0) next = Math.max(1000, Math.min(next, body.intervalMs));
        $("trends-note").textContent = body.executorsSeen > body.executors.length
          ? "Sparklines for " + body.executors.length + " of " + body.executorsSeen +
            " executors: at most " + body.maxExecutors + " are sampled per namespace." : "";
        if (ui.state) renderExecutors(ui.state);
      }
    } catch (e) {
      // The next poll tries again; the connection badge tells about outages.
    }
  }
  trends.timer = setTimeout(pollTrends, next);
}

function makeSpark(kind) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "spark spark-" + kind);
  svg.setAttribute("viewBox", "-1 -1 " + (SPARK_W + 2) + " " + (SPARK_H + 2));
  svg.append(document.createElementNS(SVG_NS, "title"), document.createElementNS(SVG_NS, "path"));
  return svg;
}

// The x axis spans the samples held, up to the last hour; the tooltip says how long that is.
function drawTrend(sm, id) {
  if (sm.trendVersion === trends.version) return;
  sm.trendVersion = trends.version;
  const t = trends.ns === ui.ns ? trends.byId.get(id) : undefined;
  const times = trends.times;
  const to = times.length ? times[times.length - 1] : 0;
  const from = times.length ? Math.max(to - trends.windowMs, times[0]) : 0;
  const span = to - from >= trends.windowMs - 60000 ? "the last hour" : "the last " + formatAge(to - from);
  for (const [svg, values, what] of [[sm.sparkShards, t && t.shards, "shards"], [sm.sparkLoads, t && t.loads, "load"]]) {
    const line = values ? sparklinePath(times, values, from, to, SPARK_W, SPARK_H) : null;
    svg.lastChild.setAttribute("d", line ? line.d : "");
    svg.dataset.points = String(values ? values.filter((v) => v !== null).length : 0);
    svg.firstChild.textContent = !line || !line.d ? what + ": not sampled yet"
      : what + " over " + span + ": " + formatLoad(line.min) + " to " + formatLoad(line.max);
  }
}
`;
