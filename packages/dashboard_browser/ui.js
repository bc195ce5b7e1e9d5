// @ts-check
/**
 * What the page shows now, shared by its parts: the namespaces, the one
 * selected, its last picture from the event stream and how fresh it is, the
 * map's colouring and the selected shard.
 *
 * @module
 */

/** @import { DashboardState } from "../../src/transport/http/dashboard/state.ts" */

/**
 * A namespace as `GET api/namespaces` lists it.
 *
 * @typedef {DashboardState["namespace"]} NamespaceInfo
 */

/**
 * The page's view state.
 *
 * @typedef {object} PageState
 * @property {readonly NamespaceInfo[]} namespaces The namespaces this instance serves.
 * @property {string} ns The selected namespace ("" before one is).
 * @property {DashboardState | null} state Its last picture, null until the first event.
 * @property {EventSource | null} source The event stream of the selected namespace.
 * @property {number} lastAt When the last picture came (browser clock, ms; 0: none yet).
 * @property {string} mode How the map is coloured: "owner" or "load".
 * @property {string} selected The selected shard key ("" when none).
 * @property {number | ReturnType<typeof setTimeout>} retry Timer of the next reconnection.
 */

/**
 * The one view state of the page.
 *
 * @example
 * ```js ignore
 * if (ui.state) renderExecutors(ui.state);
 * ```
 *
 * @type {PageState}
 */
export const ui = {
  namespaces: [],
  ns: "",
  state: null,
  source: null,
  lastAt: 0,
  mode: "owner",
  selected: "",
  retry: 0,
};
