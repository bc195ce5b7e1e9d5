/**
 * The metrics of key-range namespaces (`type: range`): slices split, merged
 * and isolated, the share of the hash line whose owner was replaced, and the
 * number of slices, as this instance's committed passes report them.
 *
 * @module
 */
import * as prom from "prom-client";
import type { PassObservation } from "../core/observer.ts";

/** What a pass of a key-range namespace reports: `PassObservation.ranges`. */
export type RangeObservation = NonNullable<PassObservation["ranges"]>;

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
        "(change: split, merge, isolation), in committed changes.",
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
    if (ranges.keyspaceMoved > 0) this.#keyspaceMoved.inc({ namespace }, ranges.keyspaceMoved);
    this.#slices.set({ namespace }, ranges.slices);
  }
}
