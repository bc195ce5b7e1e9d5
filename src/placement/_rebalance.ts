/**
 * Moves for the replicated planner: repairing zone spread, then evening out
 * owner counts, each within a move budget. Not part of the public API.
 *
 * @module
 */
import { loadTally, type PlanContext, replaceOwner } from "./_context.ts";
import { pickLeastLoaded } from "./_pick.ts";

/**
 * The shards each executor owns, in shard order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext } from "./_context.ts";
 * import { shardLists } from "./_rebalance.ts";
 *
 * const ctx = createContext({ shards: ["s", "t"], owners: [["b"], ["b"]], executors: ["a", "b"] }, 1, "zone");
 * assert.deepEqual(shardLists(ctx).map((set) => [...set]), [[], [0, 1]]);
 * ```
 */
export function shardLists(ctx: PlanContext): Set<number>[] {
  const lists = Array.from(ctx.index.ids, () => new Set<number>());
  for (let s = 0; s < ctx.table.shards; s++) {
    for (const e of ctx.table.members(s)) lists[e]!.add(s);
  }
  return lists;
}

function move(ctx: PlanContext, shardsOf: Set<number>[], s: number, slot: number, y: number): void {
  const x = replaceOwner(ctx, s, slot, y);
  shardsOf[x]!.delete(s);
  shardsOf[y]!.add(s);
}

/**
 * Repairs sets that are not spread over zones (a zone joined, or kept owners
 * were crowded into one zone): replaces the most-loaded owner of a zone over
 * its quota by the least-loaded executor of a zone under it. Returns the
 * moves made (at most `budget`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext } from "./_context.ts";
 * import { shardLists, spreadZones } from "./_rebalance.ts";
 *
 * const executors = ["a1", "a2", "b1"].map((id) => ({ id, metadata: { zone: id[0]! } }));
 * const ctx = createContext({ shards: ["s"], owners: [["a1", "a2"]], executors }, 2, "zone");
 * assert.equal(spreadZones(ctx, shardLists(ctx), 5), 1);
 * assert.deepEqual([...ctx.table.members(0)].map((e) => ctx.index.ids[e]), ["a1", "b1"]);
 * ```
 */
export function spreadZones(ctx: PlanContext, shardsOf: Set<number>[], budget: number): number {
  const { table, index, loads } = ctx;
  let moves = 0;
  for (let s = 0; s < table.shards && moves < budget; s++) {
    const tally = loadTally(ctx, s);
    while (!tally.valid && moves < budget) {
      let slot = -1;
      for (let i = 0; i < table.size(s); i++) {
        const e = table.get(s, i);
        if (!tally.isOver(index.zoneOf[e]!)) continue;
        // Prefer keeping the primary, then moving the most-loaded owner.
        if (slot <= 0 || loads.count(e) >= loads.count(table.get(s, slot))) slot = i;
      }
      if (slot < 0) break;
      const from = index.zoneOf[table.get(s, slot)]!;
      tally.remove(from);
      const y = pickLeastLoaded(ctx, s, tally, s);
      if (y < 0 || index.zoneOf[y] === from) {
        tally.add(from);
        break;
      }
      move(ctx, shardsOf, s, slot, y);
      tally.add(index.zoneOf[y]!);
      moves++;
    }
  }
  return moves;
}

/**
 * Evens out owner counts: repeatedly moves one replica from the most-loaded
 * executor to the least-loaded executor that may take it (not already an
 * owner, and keeping the set spread over zones) whose count is at least two
 * lower, so every move strictly lowers the sum of squared counts. Replicas
 * held as a primary move last. An executor from which no such move exists is
 * retried only after a count changes in a way that can give it one. Within a
 * zone, the result (with budget to spare) never has two executors whose
 * counts differ by two or more. Returns the moves made (at most `budget`).
 *
 * @example A joining executor takes its share
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext } from "./_context.ts";
 * import { balanceCounts, shardLists } from "./_rebalance.ts";
 *
 * const owners = [["a", "b"], ["a", "b"], ["a", "b"]];
 * const ctx = createContext({ shards: ["1", "2", "3"], owners, executors: ["a", "b", "c"] }, 2, "zone");
 * assert.equal(balanceCounts(ctx, shardLists(ctx), 10), 2);
 * assert.deepEqual([...ctx.loads.counts], [2, 2, 2]);
 * ```
 */
export function balanceCounts(ctx: PlanContext, shardsOf: Set<number>[], budget: number): number {
  const { all } = ctx.loads;
  const stuck = new Uint8Array(ctx.index.ids.length);
  let stuckList: number[] = [];
  let moves = 0;
  while (moves < budget) {
    const least = ctx.loads.count(all.at(0));
    let donor = -1;
    let target = -1;
    for (let i = all.size - 1; i >= 0 && target < 0; i--) {
      donor = all.at(i);
      if (ctx.loads.count(donor) - least < 2) break;
      if (stuck[donor] === 1) continue;
      target = moveOne(ctx, shardsOf, donor);
      if (target < 0) {
        stuck[donor] = 1;
        stuckList.push(donor);
      }
    }
    if (target < 0) break;
    moves++;
    // The donor may now take from stuck executors, and the target has more to give.
    const lowered = ctx.loads.count(donor);
    stuck[target] = 0;
    stuckList = stuckList.filter((x) => {
      if (stuck[x] === 1 && ctx.loads.count(x) < lowered + 2) return true;
      stuck[x] = 0;
      return false;
    });
  }
  return moves;
}

function moveOne(ctx: PlanContext, shardsOf: Set<number>[], x: number): number {
  const { table, index, loads, quota } = ctx;
  const limit = loads.count(x) - 2;
  const zx = index.zoneOf[x]!;
  if (!hasTarget(ctx, x, limit)) return -1;
  for (const primary of [false, true]) {
    for (const s of shardsOf[x]!) {
      const slot = table.indexOf(s, x);
      if ((slot === 0) !== primary) continue;
      const tally = loadTally(ctx, s);
      tally.remove(zx);
      let best = -1;
      for (let z = 0; z < index.zones.length; z++) {
        if (!tally.canAdd(z) || (z !== zx && quota.extras === 0)) continue;
        const order = loads.byZone[z]!;
        for (let p = 0; p < order.size; p++) {
          const y = order.at(p);
          if (loads.count(y) > limit) break;
          if (table.has(s, y)) continue;
          if (best < 0 || loads.count(y) < loads.count(best)) best = y;
          break;
        }
      }
      if (best >= 0) {
        move(ctx, shardsOf, s, slot, best);
        return best;
      }
    }
  }
  return -1;
}

/** Whether any executor could take a replica from `x` by count and zone alone (O(zones)). */
function hasTarget(ctx: PlanContext, x: number, limit: number): boolean {
  const { index, loads, quota } = ctx;
  const zx = index.zoneOf[x]!;
  for (let z = 0; z < index.zones.length; z++) {
    if (z !== zx && (quota.extras === 0 || quota.extra[z] === 0)) continue;
    const order = loads.byZone[z]!;
    if (order.size > 0 && loads.count(order.at(0)) <= limit) return true;
  }
  return false;
}
