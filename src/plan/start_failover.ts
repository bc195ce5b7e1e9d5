/**
 * A shard whose start keeps failing on its owner is tried on another
 * executor: once its owner reports {@linkcode FAILOVER_AFTER_FAILED_STARTS}
 * consecutive failed starts (`failed_starts`), a pass of a single-owner
 * namespace moves it to the next eligible executor in id order (after its
 * owner, wrapping around). A fault of one host is then healed, and a start
 * that fails everywhere (a poison shard) meets distinct executors (never
 * two taking turns, as "the least loaded other" would make it: a shard that
 * moves or is placed avoids the executors that failed with it recently, as
 * the leader's detector counts them) and so the quarantine threshold
 * (poison_detector.ts) after a few of them, instead of retrying on one
 * executor forever. Pure.
 *
 * @module
 */
import { failedStartsOf } from "../core/failed_starts.ts";
import type { ShardReports } from "../core/types.ts";

/** Consecutive failed starts on its owner after which a shard is moved. */
export const FAILOVER_AFTER_FAILED_STARTS = 3;

/**
 * Shard → its owner, for the shards whose owner reports at least `after`
 * consecutive failed starts of them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failingStarts } from "./start_failover.ts";
 *
 * const reports = new Map([["7", { status: "NOT_RUNNING" as const, load: 0, failedStarts: 3 }]]);
 * const executors = new Map([["a", { reports }]]);
 * const owners = new Map([["7", "a"]]);
 * assert.deepEqual(failingStarts({ executors, owners }, 3), new Map([["7", "a"]]));
 * assert.equal(failingStarts({ executors, owners }, 4).size, 0);
 * ```
 */
export function failingStarts(
  input: {
    readonly executors: ReadonlyMap<string, { readonly reports: ShardReports }>;
    readonly owners: ReadonlyMap<string, string>;
  },
  after = FAILOVER_AFTER_FAILED_STARTS,
): Map<string, string> {
  const failing = new Map<string, string>();
  for (const [executorId, e] of input.executors) {
    for (const [shard, failedStarts] of failedStartsOf(e.reports)) {
      if (failedStarts >= after && input.owners.get(shard) === executorId) {
        failing.set(shard, executorId);
      }
    }
  }
  return failing;
}

/**
 * Changes, in `planned` (shard index → eligible executor index, -1 none),
 * the target of each shard planned on an executor it must avoid to the next
 * eligible one (`eligible` is in id order, wrapping around) it need not
 * avoid. A shard avoids its owner once that reports `failing` starts of it,
 * and, when it moves or is placed, the executors `failedWith` it recently
 * (the poison-shard detector's); `current` holds each shard's current owner
 * (eligible index, -1 none), which it may keep. A shard every executor must
 * avoid, or a namespace with one eligible executor, keeps its plan.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { avoidFailingOwners } from "./start_failover.ts";
 *
 * const planned = Int32Array.from([0, 0, 2]);
 * const failing = new Map([["a", "x"], ["c", "z"]]);
 * avoidFailingOwners(planned, ["a", "b", "c"], failing, ["x", "y", "z"], { current: planned.slice() });
 * assert.deepEqual([...planned], [1, 0, 0]); // x → y, and z wraps around to x
 *
 * // Placed afresh (no current owner): not on y, which failed with it before.
 * const placed = Int32Array.from([1]);
 * avoidFailingOwners(placed, ["d"], new Map(), ["x", "y", "z"], {
 *   current: Int32Array.from([-1]),
 *   failedWith: new Map([["d", new Set(["y"])]]),
 * });
 * assert.deepEqual([...placed], [2]);
 * ```
 */
export function avoidFailingOwners(
  planned: Int32Array,
  shards: readonly string[],
  failing: ReadonlyMap<string, string>,
  eligible: readonly string[],
  options: {
    readonly current: Int32Array;
    readonly failedWith?: ReadonlyMap<string, ReadonlySet<string>> | undefined;
  },
): void {
  const failedWith = options.failedWith;
  if ((failing.size === 0 && !failedWith?.size) || eligible.length < 2) return;
  for (let i = 0; i < shards.length; i++) {
    const shard = shards[i]!;
    const owner = failing.get(shard);
    const avoid = failedWith?.get(shard);
    if (owner === undefined && avoid === undefined) continue;
    const at = planned[i]!;
    if (at < 0) continue;
    const kept = options.current[i]!;
    const bad = (e: number) =>
      eligible[e] === owner || (e !== kept && avoid !== undefined && avoid.has(eligible[e]!));
    if (!bad(at)) continue;
    for (let step = 1; step < eligible.length; step++) {
      const next = (at + step) % eligible.length;
      if (!bad(next)) {
        planned[i] = next;
        break;
      }
    }
  }
}
