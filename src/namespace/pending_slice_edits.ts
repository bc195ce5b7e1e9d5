/**
 * Operator edits of a key-range namespace's slices (split, merge, pin) that
 * the leader has not committed yet. Like the cells namespace's pending moves
 * (`pending_cell_moves.ts`): the leading instance keeps them in memory, its
 * ranges pass applies them (`PlanInput.sliceEdits`), and the caller that
 * asked waits until the cache shows the edit, then settles it. An edit asked
 * of a leader that then loses its term is not carried over: the caller's
 * wait times out and the operator asks again (a pin, once committed, is in
 * the store and survives leader changes).
 *
 * @module
 */
import type { SliceEdit } from "../plan/slice_edits.ts";

/**
 * Pending slice edits, in the order asked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PendingSliceEdits } from "./pending_slice_edits.ts";
 *
 * const edits = new PendingSliceEdits();
 * const edit = { kind: "pin", sliceId: 3, pinned: true } as const;
 * edits.add(edit);
 * assert.deepEqual(edits.pending, [edit]);
 * edits.settle(edit);
 * assert.deepEqual(edits.pending, []);
 * ```
 */
export class PendingSliceEdits {
  #edits: SliceEdit[] = [];
  #version = 0;

  /** Grows with every change of the pending edits: a pass input like the state's. */
  get version(): number {
    return this.#version;
  }

  /** The pending edits, oldest first. */
  get pending(): readonly SliceEdit[] {
    return this.#edits;
  }

  /** Asks for `edit`. */
  add(edit: SliceEdit): void {
    this.#edits = [...this.#edits, edit];
    this.#version++;
  }

  /** Forgets `edit` (seen committed, or given up). */
  settle(edit: SliceEdit): void {
    this.#edits = this.#edits.filter((e) => e !== edit);
    this.#version++;
  }
}
