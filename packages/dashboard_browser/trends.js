// @ts-check
/**
 * The executors' sparklines: each executor's owned shards (blue) and
 * reported load (amber) over the last hour, from `GET
 * api/namespaces/<ns>/trends` (sampled by the instance, see
 * `executor_samples.ts`), polled at the sampling interval (at most every
 * 15 s). The x axis spans the samples held, up to an hour (a young instance
 * has less), and the y axis runs from 0 to the line's largest value. Lines
 * break where an executor was not sampled (it was not there, or the store
 * was unreachable). Drawn by `sparklinePath` from `sparkline.js`.
 *
 * @module
 */
import { $ } from "./dom.js";
import { formatAge, formatLoad } from "./format.js";
import { sparklinePath } from "./sparkline.js";
import { ui } from "./ui.js";

/** @import { ExecutorTrend, NamespaceTrends } from "../../src/transport/http/dashboard/executor_samples.ts" */

const SVG_NS = "http://www.w3.org/2000/svg";
const SPARK_W = 120;
const SPARK_H = 18;
const trends = {
  ns: "",
  /** @type {readonly number[]} */
  times: [],
  windowMs: 3600000,
  /** @type {Map<string, ExecutorTrend>} */
  byId: new Map(),
  version: 0,
  /** @type {number | ReturnType<typeof setTimeout>} */
  timer: 0,
  /** @type {() => void} */
  changed: () => {},
};

/**
 * The sparklines of one executor row, and the trends they show.
 *
 * @typedef {object} SparkParts
 * @property {SVGSVGElement} sparkShards Owned shards.
 * @property {SVGSVGElement} sparkLoads Reported load.
 * @property {number} [trendVersion] The trends drawn last (none yet when absent).
 */

/**
 * Calls `redraw` whenever new trends arrive for the selected namespace.
 *
 * @example
 * ```js ignore
 * whenTrendsChange(() => ui.state && renderExecutors(ui.state));
 * ```
 *
 * @param {() => void} redraw Draws the executor rows again.
 * @returns {void}
 */
export function whenTrendsChange(redraw) {
  trends.changed = redraw;
}

/**
 * Reads the selected namespace's trends now, then again at the sampling
 * interval (at most every 15 s).
 *
 * @example
 * ```js ignore
 * pollTrends();
 * ```
 *
 * @returns {Promise<void>}
 */
export async function pollTrends() {
  clearTimeout(trends.timer);
  const ns = ui.ns;
  let next = 15000;
  if (ns) {
    try {
      const res = await fetch("api/namespaces/" + encodeURIComponent(ns) + "/trends", {
        cache: "no-store",
      });
      if (res.ok && ui.ns === ns) {
        const body = /** @type {NamespaceTrends} */ (await res.json());
        Object.assign(trends, { ns, times: body.times, windowMs: body.windowMs || 3600000 });
        trends.byId = new Map(body.executors.map((e) => [e.executorId, e]));
        trends.version++;
        if (body.intervalMs > 0) next = Math.max(1000, Math.min(next, body.intervalMs));
        $("trends-note").textContent = body.executorsSeen > body.executors.length
          ? "Sparklines for " + body.executors.length + " of " + body.executorsSeen +
            " executors: at most " + body.maxExecutors + " are sampled per namespace."
          : "";
        trends.changed();
      }
    } catch (_) {
      // The next poll tries again; the connection badge tells about outages.
    }
  }
  trends.timer = setTimeout(pollTrends, next);
}

/**
 * An empty sparkline of `kind` ("shards" or "loads"): a title and a path.
 *
 * @example
 * ```js ignore
 * cell.append(makeSpark("shards"));
 * ```
 *
 * @param {string} kind Which line.
 * @returns {SVGSVGElement} The sparkline.
 */
export function makeSpark(kind) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "spark spark-" + kind);
  svg.setAttribute("viewBox", "-1 -1 " + (SPARK_W + 2) + " " + (SPARK_H + 2));
  svg.append(document.createElementNS(SVG_NS, "title"), document.createElementNS(SVG_NS, "path"));
  return svg;
}

/**
 * Draws executor `id`'s trends into its row's sparklines, unless they show
 * these trends already. The x axis spans the samples held, up to the last
 * hour; the tooltip says how long that is.
 *
 * @example
 * ```js ignore
 * drawTrend(parts, "exec-a");
 * ```
 *
 * @param {SparkParts} sm The row's sparklines.
 * @param {string} id The executor.
 * @returns {void}
 */
export function drawTrend(sm, id) {
  if (sm.trendVersion === trends.version) return;
  sm.trendVersion = trends.version;
  const t = trends.ns === ui.ns ? trends.byId.get(id) : undefined;
  const times = trends.times;
  const to = times[times.length - 1] ?? 0;
  const from = times.length ? Math.max(to - trends.windowMs, times[0] ?? 0) : 0;
  const span = to - from >= trends.windowMs - 60000
    ? "the last hour"
    : "the last " + formatAge(to - from);
  /** @type {[SVGSVGElement, readonly (number | null)[] | undefined, string][]} */
  const lines = [[sm.sparkShards, t && t.shards, "shards"], [sm.sparkLoads, t && t.loads, "load"]];
  for (const [svg, values, what] of lines) {
    const line = values ? sparklinePath(times, values, from, to, SPARK_W, SPARK_H) : null;
    /** @type {Element} */ (svg.lastChild).setAttribute("d", line ? line.d : "");
    svg.dataset.points = String(values ? values.filter((v) => v !== null).length : 0);
    /** @type {Element} */ (svg.firstChild).textContent = !line || !line.d
      ? what + ": not sampled yet"
      : what + " over " + span + ": " + formatLoad(line.min) + " to " + formatLoad(line.max);
  }
}
