/**
 * Who owns the keys of a slice the range planner cut in this pass (split
 * off, or isolated for a hot key): the owners of the slice they were cut
 * from, until a handover or a prepared move gives them to another executor.
 * Exclusive ownership (`ranges_handover.ts`) and warm handover
 * (`ranges_warm.ts`) both start a new slice there. Pure.
 *
 * @module
 */
import type { Slice, SliceMap } from "../core/slices.ts";
import { ownersOf, type OwnerTables } from "./owner_tables.ts";

/**
 * The owners (primary first) of the keys of `slice` when it is new in this
 * pass: those of the slice of `before` (the slice map the pass started from)
 * that held its first point. Undefined when `slice` is not new: `before`
 * holds it, or there was no map before.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SliceMap } from "../core/slices.ts";
 * import { parentOwners } from "./ranges_parent_owners.ts";
 *
 * const before = SliceMap.initial(2); // slices 0 and 1
 * const after = before.split(1, before.byId(1).start + 10n); // slice 2 cut from 1
 * const tables = { owners: new Map([["0", "a"], ["1", "b"]]), ownerSets: new Map() };
 * assert.deepEqual(parentOwners(tables, before, after.byId(2)), ["b"]);
 * assert.equal(parentOwners(tables, before, after.byId(1)), undefined); // not new
 * assert.equal(parentOwners(tables, undefined, after.byId(2)), undefined); // the first map
 * ```
 */
export function parentOwners(
  tables: OwnerTables,
  before: SliceMap | undefined,
  slice: Slice,
): readonly string[] | undefined {
  if (before === undefined || before.find(slice.id) !== undefined) return undefined;
  return ownersOf(tables, String(before.slices[before.indexOfPoint(slice.start)]!.id));
}
