// @ts-check
/**
 * The shard map's legend: the load scale with the hottest shard's load, or
 * each owner's colour with its shard count; then unowned and drained.
 *
 * @module
 */
import { $, make } from "./dom.js";
import { formatLoad } from "./format.js";
import { LOAD_COLOURS } from "./shard_map.js";
import { ui } from "./ui.js";

/** @import { DashboardState } from "../../src/transport/http/dashboard/state.ts" */

/** @param {string} colour @param {string} label @param {string} [extra] */
function legendItem(colour, label, extra) {
  const item = make("span", "legend-item");
  const swatch = make("span", "swatch " + (extra || ""));
  if (colour) swatch.style.background = colour;
  item.append(swatch, make("span", "", label));
  return item;
}

/**
 * Shows the map's legend: the load scale, or the owners' colours.
 *
 * @param {DashboardState} s The picture.
 * @returns {void}
 */
export function renderLegend(s) {
  const items = [];
  if (ui.mode === "load") {
    items.push(make("span", "", "load 0"));
    for (const colour of LOAD_COLOURS) items.push(legendItem(colour, "", "step"));
    items.push(make("span", "", formatLoad(s.summary.maxShardLoad) + " (hottest shard)"));
  } else {
    for (const e of s.executors.slice(0, 30)) {
      items.push(legendItem(e.colour, e.executorId + " (" + e.shardCount + ")"));
    }
    if (s.executors.length > 30) {
      items.push(make("span", "", "and " + (s.executors.length - 30) + " more"));
    }
  }
  items.push(legendItem("", "unowned (" + s.summary.unowned + ")", "unowned"));
  items.push(legendItem("", "drained (" + s.summary.drained + ")", "drained"));
  $("legend").replaceChildren(...items);
}
