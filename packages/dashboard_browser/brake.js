// @ts-check
/**
 * The mass-loss brake's note under the header (docs/operations.md, "Mass
 * loss"): while the brake holds, since when, why, and how many shards stay
 * unowned; after an operator lifted it, by whom and when (for an hour).
 *
 * @module
 */
import { $, make } from "./dom.js";
import { formatAge, formatTime } from "./format.js";

/** @import { DashboardState } from "../../src/transport/http/dashboard/state.ts" */

/** How long a lift stays on the page. */
const LIFT_SHOWN_MS = 60 * 60 * 1000;

/**
 * Shows the brake's note for picture `s` (hidden when the brake does not
 * hold and was not lifted within the hour).
 *
 * @example
 * ```js ignore
 * renderBrake(ui.state);
 * ```
 *
 * @param {DashboardState} s The namespace's picture.
 * @returns {void}
 */
export function renderBrake(s) {
  const note = $("brake-note");
  const b = s.brake;
  const lifted = b && b.state === "lifted" && b.endedAtMs !== undefined &&
    s.generatedAtMs - b.endedAtMs < LIFT_SHOWN_MS;
  note.hidden = !b || (b.state !== "engaged" && !lifted);
  if (!b || note.hidden) return;
  note.className = b.state === "engaged" ? "engaged" : "lifted";
  note.dataset.state = b.state;
  if (b.state === "engaged") {
    note.replaceChildren(
      make("strong", "", "Mass-loss brake ENGAGED"),
      " since " + formatTime(b.sinceMs) + " (" + formatAge(s.generatedAtMs - b.sinceMs) + "): ",
      make("span", "brake-reason", b.reason),
      make(
        "div",
        "brake-unowned",
        s.summary.unowned + " shard" + (s.summary.unowned === 1 ? "" : "s") +
          " unowned; no balancing moves. It releases when the lost executors return; " +
          "lift it with: smctl namespace brake lift " + s.namespace.name,
      ),
    );
  } else {
    note.replaceChildren(
      make("strong", "", "Mass-loss brake lifted"),
      " by " + (b.liftedBy ?? "an operator") + " at " + formatTime(b.endedAtMs ?? 0) +
        " (engaged since " + formatTime(b.sinceMs) + ")",
    );
  }
}
