/**
 * Completing one owner set so that it shares no registered fragment: a
 * randomized least-loaded search (fast, diverse sets) and an exhaustive
 * depth-first search with a budget (exact for small cases). Both honour zone
 * spread first. Not part of the public API.
 *
 * @module
 */
import type { PlanContext } from "./_context.ts";
import type { FragmentIndex } from "./_fragments.ts";
import { allowedZones } from "./_pick.ts";
import { randomBelow } from "./_prng.ts";

/** Random picks tried per member before scanning the zone in load order. */
const TRIES = 24;

/** What one search is allowed to use. */
export interface SearchTask {
  /** The set to complete, changed in place (kept owners first). */
  readonly set: number[];
  /** Fragments the set must not share (none: no overlap constraint). */
  readonly fragments: FragmentIndex | undefined;
  /** An executor that must not be picked (-1: none). */
  readonly exclude: number;
}

function usable(task: SearchTask, e: number): boolean {
  return e !== task.exclude && !task.set.includes(e) &&
    (task.fragments === undefined || !task.fragments.conflicts(task.set, e));
}

/**
 * Completes `task.set` to `ctx.width` owners with up to `attempts` tries.
 * Each member comes from the most urgent zones of spreading: first a few
 * random picks among the least-loaded executors of a zone (the window widens
 * after failures), then a scan of the allowed zones in load order. Leaves the
 * set as it was when every attempt fails.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext } from "./_context.ts";
 * import { prng } from "./_prng.ts";
 * import { randomComplete } from "./_set_search.ts";
 *
 * const ctx = createContext({ shards: ["s"], owners: [[]], executors: ["a", "b", "c"] }, 2, "zone");
 * const task = { set: [], fragments: undefined, exclude: -1 };
 * assert.ok(randomComplete(ctx, task, prng(1), 1));
 * assert.equal(new Set(task.set).size, 2);
 * ```
 */
export function randomComplete(
  ctx: PlanContext,
  task: SearchTask,
  random: () => number,
  attempts: number,
): boolean {
  const { set } = task;
  const kept = set.length;
  for (let attempt = 0; attempt < attempts; attempt++) {
    set.length = kept;
    ctx.tally.load(set, kept, ctx.index.zoneOf);
    while (set.length < ctx.width) {
      const e = pickOne(ctx, task, random);
      if (e < 0) break;
      set.push(e);
      ctx.tally.add(ctx.index.zoneOf[e]!);
    }
    if (set.length === ctx.width) return true;
  }
  set.length = kept;
  return false;
}

function pickOne(ctx: PlanContext, task: SearchTask, random: () => number): number {
  const zones = allowedZones(ctx.tally, ctx.index.zones.length);
  const { loads } = ctx;
  // First try the zone with the least-loaded executor, ties to the lowest mean load.
  const compare = (y: number, z: number): number => {
    const a = loads.byZone[y]!;
    const b = loads.byZone[z]!;
    return loads.count(a.at(0)) - loads.count(b.at(0)) ||
      loads.zoneTotals[y]! / a.size - loads.zoneTotals[z]! / b.size;
  };
  let first = 0;
  for (let i = 1; i < zones.length; i++) if (compare(zones[i]!, zones[first]!) < 0) first = i;
  for (let t = 0; t < TRIES; t++) {
    const z = t === 0 ? zones[first]! : zones[randomBelow(random, zones.length)]!;
    const order = loads.byZone[z]!;
    const bucket = order.endOf(loads.count(order.at(0)));
    const window = Math.min(order.size, Math.max(bucket, 2) << (t >> 2));
    const e = order.at(randomBelow(random, window));
    if (usable(task, e)) return e;
  }
  for (const z of zones) {
    const order = loads.byZone[z]!;
    for (let p = 0; p < order.size; p++) if (usable(task, order.at(p))) return order.at(p);
  }
  return -1;
}

/** Result of a depth-first search. */
export type DepthFirstResult = "found" | "none" | "budget";

/**
 * Completes `task.set` by depth-first search over all executors in load
 * order (each combination visited once), checking zone quota and fragments
 * at every step. Returns "found" with the set completed, "none" when no
 * completion exists (a proof), or "budget" when `budget` candidate checks ran
 * out first; the set is unchanged unless found.
 *
 * @example Only one pair of four executors is left unused
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext } from "./_context.ts";
 * import { FragmentIndex } from "./_fragments.ts";
 * import { depthFirstComplete } from "./_set_search.ts";
 *
 * const ctx = createContext({ shards: ["s"], owners: [[]], executors: ["a", "b", "c", "d"] }, 2, "zone");
 * const pairs = new FragmentIndex(2, 4);
 * for (const pair of [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3]]) pairs.addSet(pair);
 * const task = { set: [], fragments: pairs, exclude: -1 };
 * assert.equal(depthFirstComplete(ctx, task, 1_000), "found");
 * assert.deepEqual(task.set.sort(), [2, 3]);
 * pairs.addSet([2, 3]);
 * assert.equal(depthFirstComplete(ctx, { set: [], fragments: pairs, exclude: -1 }, 1_000), "none");
 * ```
 */
export function depthFirstComplete(
  ctx: PlanContext,
  task: SearchTask,
  budget: number,
): DepthFirstResult {
  const { set } = task;
  const { tally, index } = ctx;
  const all = ctx.loads.all;
  const kept = set.length;
  tally.load(set, kept, index.zoneOf);
  let left = budget;
  const search = (from: number): DepthFirstResult => {
    const need = ctx.width - set.length;
    if (need === 0) return "found";
    let relaxed = true;
    for (let z = 0; z < index.zones.length && relaxed; z++) if (tally.canAdd(z)) relaxed = false;
    for (let p = from; p <= all.size - need; p++) {
      if (--left < 0) return "budget";
      const e = all.at(p);
      const z = index.zoneOf[e]!;
      if (!(relaxed ? tally.hasRoom(z) : tally.canAdd(z)) || !usable(task, e)) continue;
      set.push(e);
      tally.add(z);
      const result = search(p + 1);
      if (result === "found") return result;
      set.pop();
      tally.remove(z);
      if (result === "budget") return result;
    }
    return "none";
  };
  const result = search(0);
  if (result !== "found") set.length = kept;
  return result;
}
