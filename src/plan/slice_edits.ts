/**
 * An operator's edits of a key-range namespace's slices (`smctl slice split`,
 * `merge`, `pin`, `unpin`): checked by the service when asked, applied by the
 * leader's next pass before the range planner runs, committed with the
 * pass's change. A slice split or merged by hand is pinned unless the
 * operator says otherwise (then the result is unpinned, whatever the parts
 * were), so that the planner does not undo the edit at its next pass (it never splits, merges or moves a pinned slice; it still gives
 * one whose owner is gone a new owner). Pure.
 *
 * @module
 */
import type { SliceEditCounts } from "../core/observer.ts";
import type { SliceMap } from "../core/slices.ts";
import { pointHex } from "../shared/point_hex.ts";
import { ownersOf, type OwnerTables } from "./owner_tables.ts";

/** One edit an operator asked for. */
export type SliceEdit =
  /** Split slice `sliceId` so that `[at, end)` becomes a slice of its own (same owners). */
  | {
    readonly kind: "split";
    readonly sliceId: number;
    readonly at: bigint;
    readonly pin: boolean;
  }
  /** Merge two adjacent slices; the left one keeps its id and owners. */
  | {
    readonly kind: "merge";
    readonly sliceId: number;
    readonly withId: number;
    readonly pin: boolean;
  }
  /** Pin (or unpin) a slice. */
  | { readonly kind: "pin"; readonly sliceId: number; readonly pinned: boolean };

/** What applying edits made. */
export interface EditedSlices {
  /** The map after the edits. */
  readonly map: SliceMap;
  /** The pinned slice ids after the edits (only ids of `map`). */
  readonly pins: ReadonlySet<number>;
  /** New slice id → the slice it was split from (it starts with that slice's owners). */
  readonly splitFrom: ReadonlyMap<number, number>;
  /** How many edits changed something (the others were made already, or no longer apply). */
  readonly applied: number;
  /** The same edits by kind. */
  readonly made: SliceEditCounts;
}

/**
 * Why `edit` cannot be made on `map`, or undefined when it can; an edit that
 * is made already (a split point that starts a slice, a pin as asked) can.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SliceMap } from "../core/slices.ts";
 * import { sliceEditProblem } from "./slice_edits.ts";
 *
 * const map = SliceMap.initial(2);
 * assert.equal(sliceEditProblem(map, { kind: "merge", sliceId: 0, withId: 1, pin: true }), undefined);
 * assert.match(sliceEditProblem(map, { kind: "pin", sliceId: 7, pinned: true })!, /no slice 7/);
 * ```
 */
export function sliceEditProblem(map: SliceMap, edit: SliceEdit): string | undefined {
  const slice = map.find(edit.sliceId);
  if (slice === undefined) return `there is no slice ${edit.sliceId}`;
  switch (edit.kind) {
    case "pin":
      return undefined;
    case "split": {
      if (edit.at === slice.start) return undefined; // split already
      if (edit.at < slice.start || edit.at >= slice.end) {
        return `the point ${pointHex(edit.at)} is not inside slice ${slice.id} ` +
          `[${pointHex(slice.start)}, ${pointHex(slice.end - 1n)}]`;
      }
      return undefined;
    }
    case "merge": {
      if (edit.withId === edit.sliceId) return "a slice cannot be merged with itself";
      const other = map.find(edit.withId);
      if (other === undefined) return `there is no slice ${edit.withId}`;
      if (other.start !== slice.end && slice.start !== other.end) {
        return `slices ${slice.id} and ${other.id} are not neighbours on the line`;
      }
      return undefined;
    }
  }
}

/**
 * Applies `edits` in order to `map` and `pins`, skipping any that no longer
 * apply (the slice is gone, the point is no longer inside it) or that are
 * made already, so that a pending edit may be passed again at every pass
 * until its caller has seen it committed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SliceMap } from "../core/slices.ts";
 * import { applySliceEdits } from "./slice_edits.ts";
 *
 * const map = SliceMap.initial(2);
 * const once = applySliceEdits(map, new Set(), [{ kind: "split", sliceId: 0, at: 5n, pin: true }]);
 * assert.deepEqual(once.map.slices.map((s) => s.id), [0, 2, 1]);
 * assert.deepEqual([...once.pins], [0, 2]);
 * assert.deepEqual([...once.splitFrom], [[2, 0]]);
 * assert.deepEqual(once.made, { split: 1, merge: 0, pin: 0, unpin: 0 });
 * const again = applySliceEdits(once.map, once.pins, [{ kind: "split", sliceId: 0, at: 5n, pin: true }]);
 * assert.equal(again.applied, 0);
 * ```
 */
export function applySliceEdits(
  map: SliceMap,
  pins: ReadonlySet<number>,
  edits: readonly SliceEdit[],
): EditedSlices {
  let current = map;
  const pinned = new Set(pins);
  const splitFrom = new Map<number, number>();
  let applied = 0;
  const made = { split: 0, merge: 0, pin: 0, unpin: 0 };
  for (const edit of edits) {
    if (sliceEditProblem(current, edit) !== undefined) continue;
    switch (edit.kind) {
      case "pin":
        if (pinned.has(edit.sliceId) === edit.pinned) continue;
        if (edit.pinned) pinned.add(edit.sliceId);
        else pinned.delete(edit.sliceId);
        break;
      case "split": {
        if (current.byId(edit.sliceId).start === edit.at) continue;
        const newId = current.nextId;
        current = current.split(edit.sliceId, edit.at);
        splitFrom.set(newId, splitFrom.get(edit.sliceId) ?? edit.sliceId);
        if (edit.pin) pinned.add(edit.sliceId).add(newId);
        else pinned.delete(edit.sliceId);
        break;
      }
      case "merge": {
        const a = current.byId(edit.sliceId), b = current.byId(edit.withId);
        const [left, right] = a.start < b.start ? [a, b] : [b, a];
        current = current.merge(left.id, right.id);
        pinned.delete(right.id);
        splitFrom.delete(right.id);
        if (edit.pin) pinned.add(left.id);
        else pinned.delete(left.id);
        break;
      }
    }
    applied++;
    made[edit.kind === "pin" ? (edit.pinned ? "pin" : "unpin") : edit.kind]++;
  }
  for (const id of pinned) if (current.find(id) === undefined) pinned.delete(id);
  return { map: current, pins: pinned, splitFrom, applied, made };
}

/**
 * Why merge `edit` cannot be made in an exclusive namespace, or undefined:
 * a merge keeps the left slice's owners, so slices of different owners (or
 * one being handed over) would change a range's owner without a handover.
 * `tables` says who owns each slice now and which are being handed over (a
 * pass's input, or a namespace view's tables).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exclusiveMergeProblem } from "./slice_edits.ts";
 *
 * const tables = { owners: new Map([["0", "a"], ["1", "b"]]), ownerSets: new Map(), releasing: new Map() };
 * const edit = { kind: "merge", sliceId: 0, withId: 1, pin: true } as const;
 * assert.match(exclusiveMergeProblem(edit, tables)!, /different owners/);
 * assert.equal(exclusiveMergeProblem({ ...edit, withId: 0 }, tables), undefined);
 * ```
 */
export function exclusiveMergeProblem(
  edit: SliceEdit,
  tables: OwnerTables & { readonly releasing: ReadonlyMap<string, unknown> },
): string | undefined {
  if (edit.kind !== "merge") return undefined;
  const releasing = (id: number) => tables.releasing.has(String(id));
  const a = ownersOf(tables, String(edit.sliceId)), b = ownersOf(tables, String(edit.withId));
  if (releasing(edit.sliceId) || releasing(edit.withId)) {
    return `slice ${releasing(edit.sliceId) ? edit.sliceId : edit.withId} is being handed over; ` +
      "merge it once the handover is done";
  }
  if (a.length !== b.length || a.some((id, i) => id !== b[i])) {
    return `slices ${edit.sliceId} and ${edit.withId} have different owners (${
      a.join(",") || "none"
    }` +
      ` and ${b.join(",") || "none"}): in an exclusive namespace a merge would move a range ` +
      "without a handover; wait until the planner gives them one owner";
  }
  return undefined;
}
