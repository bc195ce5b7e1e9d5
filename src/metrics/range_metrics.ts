/**
 * The metrics of key-range namespaces (`type: range`): slices split, merged
 * and isolated by the planner, and split, merged, pinned and unpinned by hand
 * (an operator's edits, which the leader's pass makes), the share of the hash
 * line whose owner was replaced, and the number of slices, as this instance's
 * committed passes report them.
 *
 * @module
 */
import * as prom from "prom-client";
import type { PassObservation } from "../core/observer.ts";

/** What a pass of a key-range namespace reports: `PassObservation.ranges`. */
export type RangeObservation = NonNullable<PassObservation["ranges"]>;

/** The kinds of edits by hand, counted as `change="hand_<kind>"`. */
const HAND_EDITS = ["split", "merge", "pin", "unpin"] as const;

/**
 * `sm_range_changes_total`, `sm_range_keyspace_moved_total` and
 * `sm_range_slices`, registered in `registers` (in that order) and recorded
 * from each pass's {@linkcode RangeObservation}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as prom from "prom-client";
 * import { RangeMetrics } from "./range_metrics.ts";
 *
 * const registry = new prom.Registry();
 * const ranges = new RangeMetrics([registry]);
 * ranges.record("keys", { splits: 2, merges: 0, isolations: 0, keyspaceMoved: 0.25, slices: 9 });
 * const text = await registry.metrics();
 * assert.match(text, /^sm_range_changes_total\{namespace="keys",change="split"\} 2$/m);
 * assert.match(text, /^sm_range_keyspace_moved_total\{namespace="keys"\} 0.25$/m);
 * assert.match(text, /^sm_range_slices\{namespace="keys"\} 9$/m);
 * // An operator's split (smctl slice split), made by the next pass:
 * const byHand = { split: 1, merge: 0, pin: 0, unpin: 0 };
 * ranges.record("keys", { splits: 0, merges: 0, isolations: 0, keyspaceMoved: 0, slices: 10, byHand });
 * const after = await registry.metrics();
 * assert.match(after, /^sm_range_changes_total\{namespace="keys",change="hand_split"\} 1$/m);
 * assert.match(after, /^sm_range_changes_total\{namespace="keys",change="split"\} 2$/m);
 * ```
 */
export class RangeMetrics {
  readonly #changes: prom.Counter<"namespace" | "change">;
  readonly #keyspaceMoved: prom.Counter<"namespace">;
  readonly #slices: prom.Gauge<"namespace">;

  /** Registers the three metrics in `registers`. */
  constructor(registers: prom.Registry[]) {
    this.#changes = new prom.Counter({
      name: "sm_range_changes_total",
      help: "Key-range namespaces: slices split, merged, and hot keys given a slice of their own " +
        "by the planner (change: split, merge, isolation), and slices split, merged, pinned and " +
        "unpinned by hand (change: hand_split, hand_merge, hand_pin, hand_unpin), in committed " +
        "changes.",
      labelNames: ["namespace", "change"],
      registers,
    });
    this.#keyspaceMoved = new prom.Counter({
      name: "sm_range_keyspace_moved_total",
      help: "Key-range namespaces: the share of the hash line (1 = all of it) whose owner was " +
        "replaced, summed over committed changes; its rate is the keyspace moved per second.",
      labelNames: ["namespace"],
      registers,
    });
    this.#slices = new prom.Gauge({
      name: "sm_range_slices",
      help: "Key-range namespaces: slices after this leader's last committed change.",
      labelNames: ["namespace"],
      registers,
    });
  }

  /** Records what a pass of `namespace` changed in its key ranges. */
  record(namespace: string, ranges: RangeObservation): void {
    for (const change of ["split", "merge", "isolation"] as const) {
      const count = change === "split"
        ? ranges.splits
        : change === "merge"
        ? ranges.merges
        : ranges.isolations;
      if (count > 0) this.#changes.inc({ namespace, change }, count);
    }
    for (const kind of HAND_EDITS) {
      const count = ranges.byHand?.[kind] ?? 0;
      if (count > 0) this.#changes.inc({ namespace, change: `hand_${kind}` }, count);
    }
    if (ranges.keyspaceMoved > 0) this.#keyspaceMoved.inc({ namespace }, ranges.keyspaceMoved);
    this.#slices.set({ namespace }, ranges.slices);
  }
}
