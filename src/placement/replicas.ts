/**
 * Owner sets for replicated namespaces (`replicas: k`).
 *
 * @module
 */
import { createContext, report } from "./_context.ts";
import { fillSets } from "./_pick.ts";
import { balanceCounts, shardLists, spreadZones } from "./_rebalance.ts";
import { resolveOptions } from "./_validate.ts";
import type { OwnerSetInput, OwnerSetOptions, OwnerSetPlan } from "./types.ts";

/**
 * Plans the owner sets of a replicated namespace: every shard gets
 * `min(replicas, executors)` distinct owners.
 *
 * 1. **Keep**: every current owner that is still eligible stays (surplus
 *    owners beyond `replicas` are dropped from the end of the set).
 * 2. **Fill** (free): a shard missing owners takes the least-loaded
 *    executors of the zones it lacks. Zones come first: a zone gets a second
 *    replica of a shard only when every zone with executors to spare has one
 *    (in general: water-filling, see `docs/placement.md`).
 * 3. **Spread** (moves): sets whose kept owners crowd a zone (for example
 *    after a new zone joined) are repaired, one owner at a time.
 * 4. **Balance** (moves): one replica at a time goes from the most-loaded
 *    executor to a least-loaded one at least two below it, keeping zone
 *    spread. A balanced assignment moves nothing; a joining executor takes
 *    its share within the budget.
 *
 * Spread and balance share `maxMoves` (default `Infinity`); filling never
 * counts. Pure and deterministic: the result depends only on the input
 * (executors are taken in id order, whatever their input order). Runs in
 * O(shards · replicas · zones + moves · (shards/executor) · zones ·
 * replicas) with typed arrays.
 *
 * @example Three zones, three replicas: one per zone
 * ```ts
 * import assert from "node:assert/strict";
 * import { planReplicas } from "./replicas.ts";
 *
 * const executors = ["a1", "a2", "b1", "b2", "c1", "c2"]
 *   .map((id) => ({ id, metadata: { zone: id[0]! } }));
 * const plan = planReplicas(
 *   { shards: ["s0", "s1"], owners: [["a1"], []], executors },
 *   { replicas: 3 },
 * );
 * assert.equal(plan.owners[0]![0], "a1");
 * for (const set of plan.owners) {
 *   assert.deepEqual(set.map((id) => id[0]).sort(), ["a", "b", "c"]);
 * }
 * assert.equal(plan.moves, 0);
 * ```
 */
export function planReplicas(input: OwnerSetInput, options: OwnerSetOptions): OwnerSetPlan {
  const { replicas, zoneKey, maxMoves } = resolveOptions(input, options);
  const ctx = createContext(input, replicas, zoneKey);
  fillSets(ctx);
  let moves = 0;
  if (maxMoves > 0 && ctx.width > 0) {
    const shardsOf = shardLists(ctx);
    moves = spreadZones(ctx, shardsOf, maxMoves);
    moves += balanceCounts(ctx, shardsOf, maxMoves - moves);
  }
  return report(ctx, input, replicas, moves);
}
