/**
 * A cell and its load, the input of sticky cell placement (`cells.ts`) and
 * of its heap (`_cell_heap.ts`); in a file of its own so neither imports the
 * other for it.
 *
 * @module
 */

/**
 * A cell and its current load (for example its number of tenants).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { CellLoad } from "./cell_load.ts";
 *
 * const cell: CellLoad = { id: "cell-1", load: 12 };
 * assert.equal(cell.load, 12);
 * ```
 */
export interface CellLoad {
  /** Cell id. */
  readonly id: string;
  /** Current load, finite and ≥ 0. */
  readonly load: number;
}
