/**
 * The working state of one owner-set planning call, shared by the replicated
 * and shuffle planners. Not part of the public API.
 *
 * @module
 */
import { type ExecutorIndex, indexExecutors } from "./_executors.ts";
import { LoadIndex } from "./_load_index.ts";
import { loadOwners, ownerCounts, type OwnerTable, toIds } from "./_owner_table.ts";
import { type ZoneQuota, zoneQuota, ZoneTally } from "./_zones.ts";
import type { OwnerSetInput, OwnerSetPlan } from "./types.ts";

/** Executors, current sets, loads and zone quota of one call. */
export interface PlanContext {
  /** Executors by index, with zones. */
  readonly index: ExecutorIndex;
  /** Owners per shard to give: min(replicas, executors). */
  readonly width: number;
  /** Owner sets, loaded from the input and changed in place. */
  readonly table: OwnerTable;
  /** Owner counts, kept in step with `table`. */
  readonly loads: LoadIndex;
  /** Replicas per zone of a complete set. */
  readonly quota: ZoneQuota;
  /** A scratch tally for the set at hand. */
  readonly tally: ZoneTally;
}

/**
 * Builds the context: indexes executors and zones, keeps each shard's
 * eligible owners (at most `min(replicas, executors)`), counts loads.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext } from "./_context.ts";
 *
 * const ctx = createContext({ shards: ["s"], owners: [["b", "x"]], executors: ["a", "b"] }, 3, "zone");
 * assert.equal(ctx.width, 2);
 * assert.deepEqual([...ctx.table.members(0)], [1]);
 * assert.equal(ctx.loads.count(1), 1);
 * ```
 */
export function createContext(
  input: OwnerSetInput,
  replicas: number,
  zoneKey: string,
): PlanContext {
  const index = indexExecutors(input.executors, zoneKey);
  const width = Math.min(replicas, index.ids.length);
  const table = loadOwners(input.owners, index, width);
  const loads = new LoadIndex(ownerCounts(table, index.ids.length), index.zoneOf, index.members);
  const quota = zoneQuota(Int32Array.from(index.members, (m) => m.length), width);
  return { index, width, table, loads, quota, tally: new ZoneTally(quota) };
}

/** Loads the tally with shard `s`'s owners. */
export function loadTally(ctx: PlanContext, s: number): ZoneTally {
  ctx.tally.load(ctx.table.members(s), ctx.table.size(s), ctx.index.zoneOf);
  return ctx.tally;
}

/** Gives shard `s` one more owner `e`. */
export function addOwner(ctx: PlanContext, s: number, e: number): void {
  ctx.table.push(s, e);
  ctx.loads.add(e);
}

/** Replaces the owner in slot `slot` of shard `s` by `e`; returns the old owner. */
export function replaceOwner(ctx: PlanContext, s: number, slot: number, e: number): number {
  const old = ctx.table.get(s, slot);
  ctx.table.replaceAt(s, slot, e);
  ctx.loads.remove(old);
  ctx.loads.add(e);
  return old;
}

/** The common part of a plan's report. */
export function report(
  ctx: PlanContext,
  input: OwnerSetInput,
  replicas: number,
  moves: number,
): OwnerSetPlan {
  const { owners, added, removed } = toIds(ctx.table, ctx.index, input.owners);
  let shortShards = 0;
  let zoneSpreadViolations = 0;
  for (let s = 0; s < ctx.table.shards; s++) {
    if (ctx.table.size(s) < replicas) shortShards++;
    if (!loadTally(ctx, s).valid) zoneSpreadViolations++;
  }
  return { owners, replicas: ctx.width, shortShards, added, removed, moves, zoneSpreadViolations };
}
