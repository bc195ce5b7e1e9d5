/**
 * Who owns a shard, read from the two tables every pass's input and every
 * namespace view keep: one owner per shard, and the full owner list of the
 * shards that have several. Pure.
 *
 * @module
 */

/**
 * Who owns what: a pass's `PlanInput`, or a namespace view's tables
 * (`NamespaceView.tables()`).
 */
export interface OwnerTables {
  /** Each shard's owner (the primary, when it has several). */
  readonly owners: ReadonlyMap<string, string>;
  /** Every owner, primary first, of each shard that has several. */
  readonly ownerSets: ReadonlyMap<string, readonly string[]>;
}

/**
 * The owners of `shard` in `tables` (a pass's input, or a view's tables),
 * primary first; empty when it has none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownersOf } from "./owner_tables.ts";
 *
 * const tables = { owners: new Map([["0", "a"], ["1", "b"]]), ownerSets: new Map([["1", ["b", "c"]]]) };
 * assert.deepEqual(ownersOf(tables, "0"), ["a"]);
 * assert.deepEqual(ownersOf(tables, "1"), ["b", "c"]);
 * assert.deepEqual(ownersOf(tables, "2"), []);
 * ```
 */
export function ownersOf(tables: OwnerTables, shard: string): readonly string[] {
  const set = tables.ownerSets.get(shard);
  if (set !== undefined) return set;
  const owner = tables.owners.get(shard);
  return owner === undefined ? [] : [owner];
}
