/**
 * The deterministic choice of one more owner for a shard: least loaded,
 * within the zones that spreading allows. Not part of the public API.
 *
 * @module
 */
import { addOwner, loadTally, type PlanContext } from "./_context.ts";
import type { ZoneTally } from "./_zones.ts";

/**
 * Which zones a set may take its next owner from, most urgent first:
 * zones below their base quota, then zones that may take an extra replica,
 * then (only when the kept owners already break the quota) any zone with an
 * executor outside the set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allowedZones } from "./_pick.ts";
 * import { ZoneTally, zoneQuota } from "./_zones.ts";
 *
 * const tally = new ZoneTally(zoneQuota(Int32Array.of(3, 3), 3));
 * tally.add(0);
 * assert.deepEqual(allowedZones(tally, 2), [1]);
 * ```
 */
export function allowedZones(tally: ZoneTally, zones: number): number[] {
  const deficit: number[] = [];
  const extra: number[] = [];
  const room: number[] = [];
  for (let z = 0; z < zones; z++) {
    if (!tally.hasRoom(z)) continue;
    room.push(z);
    if (!tally.canAdd(z)) continue;
    (tally.belowBase(z) ? deficit : extra).push(z);
  }
  return deficit.length > 0 ? deficit : extra.length > 0 ? extra : room;
}

/**
 * The least-loaded executor outside shard `s`'s set, in the most urgent
 * allowed zones (see {@linkcode allowedZones}); `tally` must hold the set.
 * Ties go to the first zone from `rotate` (mod zones), then to the zone's
 * count order. Returns -1 when every executor is in the set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext, loadTally } from "./_context.ts";
 * import { pickLeastLoaded } from "./_pick.ts";
 *
 * const ctx = createContext({ shards: ["s", "t"], owners: [["a"], ["a"]], executors: ["a", "b"] }, 2, "zone");
 * assert.equal(pickLeastLoaded(ctx, 0, loadTally(ctx, 0), 0), 1);
 * ```
 */
export function pickLeastLoaded(
  ctx: PlanContext,
  s: number,
  tally: ZoneTally,
  rotate: number,
): number {
  const zones = allowedZones(tally, ctx.index.zones.length);
  let best = -1;
  let bestCount = Infinity;
  for (let i = 0; i < zones.length; i++) {
    const order = ctx.loads.byZone[zones[(i + rotate) % zones.length]!]!;
    for (let p = 0; p < order.size; p++) {
      const e = order.at(p);
      if (ctx.table.has(s, e)) continue;
      if (ctx.loads.count(e) < bestCount) {
        best = e;
        bestCount = ctx.loads.count(e);
      }
      break;
    }
  }
  return best;
}

/**
 * Gives every shard with fewer than `ctx.width` owners the least-loaded
 * executors its zones allow.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext } from "./_context.ts";
 * import { fillSets } from "./_pick.ts";
 *
 * const ctx = createContext({ shards: ["s"], owners: [[]], executors: ["a", "b"] }, 2, "zone");
 * fillSets(ctx);
 * assert.deepEqual([...ctx.table.members(0)], [0, 1]);
 * ```
 */
export function fillSets(ctx: PlanContext): void {
  const { table, index } = ctx;
  for (let s = 0; s < table.shards; s++) {
    if (table.size(s) >= ctx.width) continue;
    const tally = loadTally(ctx, s);
    while (table.size(s) < ctx.width) {
      const e = pickLeastLoaded(ctx, s, tally, s);
      if (e < 0) break;
      addOwner(ctx, s, e);
      tally.add(index.zoneOf[e]!);
    }
  }
}
