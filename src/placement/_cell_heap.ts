/**
 * A binary min-heap of cells by (load, id), for placing many tenants in one
 * call in O(log cells) each. Private to the placement package.
 *
 * @module
 */
import type { CellLoad } from "./cell_load.ts";

/** A mutable cell in the heap. */
interface Entry {
  readonly id: string;
  load: number;
}

function before(a: Entry, b: Entry): boolean {
  return a.load < b.load || (a.load === b.load && a.id < b.id);
}

/**
 * Cells ordered by load, then id (UTF-16 code unit order), as `placeTenant`
 * chooses them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CellHeap } from "./_cell_heap.ts";
 *
 * const heap = new CellHeap([{ id: "b", load: 1 }, { id: "a", load: 1 }, { id: "c", load: 0 }]);
 * assert.equal(heap.addToLeast(2), "c");
 * assert.equal(heap.addToLeast(2), "a");
 * ```
 */
export class CellHeap {
  #items: Entry[];

  /** Builds the heap from `cells` (copied). */
  constructor(cells: Iterable<CellLoad>) {
    this.#items = [...cells].map(({ id, load }) => ({ id, load }));
    for (let i = (this.#items.length >> 1) - 1; i >= 0; i--) this.#down(i);
  }

  /** Adds `load` to the least-loaded cell and returns its id; undefined when empty. */
  addToLeast(load: number): string | undefined {
    const top = this.#items[0];
    if (top === undefined) return undefined;
    top.load += load;
    this.#down(0);
    return top.id;
  }

  #down(i: number): void {
    const items = this.#items;
    const n = items.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) return;
      const right = left + 1;
      const child = right < n && before(items[right]!, items[left]!) ? right : left;
      if (!before(items[child]!, items[i]!)) return;
      [items[i], items[child]] = [items[child]!, items[i]!];
      i = child;
    }
  }
}
