/**
 * Owner sets as a flat typed array (shard × slot), loaded from the planners'
 * input and written back as ids. Not part of the public API.
 *
 * @module
 */
import type { ExecutorIndex } from "./_executors.ts";

/**
 * The owner sets of `shards` shards, at most `width` owners each, as executor
 * indices; a shard's owners keep their order (slot 0 is the primary).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OwnerTable } from "./_owner_table.ts";
 *
 * const table = new OwnerTable(2, 3);
 * table.push(0, 4);
 * table.push(0, 7);
 * table.removeAt(0, 0);
 * assert.deepEqual([...table.members(0)], [7]);
 * assert.equal(table.has(0, 4), false);
 * ```
 */
export class OwnerTable {
  /** Number of shards. */
  readonly shards: number;
  /** Most owners per shard. */
  readonly width: number;
  readonly #slots: Int32Array;
  readonly #size: Int32Array;

  /** An empty table. */
  constructor(shards: number, width: number) {
    this.shards = shards;
    this.width = width;
    this.#slots = new Int32Array(shards * width).fill(-1);
    this.#size = new Int32Array(shards);
  }

  /** Owners of shard `s`. */
  size(s: number): number {
    return this.#size[s]!;
  }

  /** The owner in slot `i` of shard `s`. */
  get(s: number, i: number): number {
    return this.#slots[s * this.width + i]!;
  }

  /** A live view of shard `s`'s owners (valid until the next change). */
  members(s: number): Int32Array {
    const start = s * this.width;
    return this.#slots.subarray(start, start + this.#size[s]!);
  }

  /** Whether executor `e` owns shard `s`. */
  has(s: number, e: number): boolean {
    const start = s * this.width;
    const end = start + this.#size[s]!;
    for (let i = start; i < end; i++) if (this.#slots[i] === e) return true;
    return false;
  }

  /** Appends owner `e` to shard `s` (the caller checks room and distinctness). */
  push(s: number, e: number): void {
    this.#slots[s * this.width + this.#size[s]!++] = e;
  }

  /** Replaces the owner in slot `i` of shard `s`. */
  replaceAt(s: number, i: number, e: number): void {
    this.#slots[s * this.width + i] = e;
  }

  /** Removes the owner in slot `i` of shard `s`, keeping the others' order. */
  removeAt(s: number, i: number): void {
    const start = s * this.width;
    const last = start + --this.#size[s]!;
    this.#slots.copyWithin(start + i, start + i + 1, last + 1);
    this.#slots[last] = -1;
  }

  /** Slot of owner `e` in shard `s`, or -1. */
  indexOf(s: number, e: number): number {
    const start = s * this.width;
    const size = this.#size[s]!;
    for (let i = 0; i < size; i++) if (this.#slots[start + i] === e) return i;
    return -1;
  }
}

/**
 * Loads the current owner sets: ids that are not eligible executors and
 * repeated ids are dropped, and at most `width` owners are kept (the first
 * ones).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexExecutors } from "./_executors.ts";
 * import { loadOwners } from "./_owner_table.ts";
 *
 * const index = indexExecutors(["a", "b", "c"], "zone");
 * const table = loadOwners([["c", "gone", "c", "a", "b"]], index, 2);
 * assert.deepEqual([...table.members(0)], [2, 0]);
 * ```
 */
export function loadOwners(
  owners: readonly (readonly string[])[],
  index: ExecutorIndex,
  width: number,
): OwnerTable {
  const table = new OwnerTable(owners.length, width);
  owners.forEach((set, s) => {
    for (const id of new Set(set)) {
      const e = index.indexOf.get(id);
      if (e !== undefined && table.size(s) < width) table.push(s, e);
    }
  });
  return table;
}

/**
 * Owner counts per executor.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OwnerTable, ownerCounts } from "./_owner_table.ts";
 *
 * const table = new OwnerTable(2, 2);
 * table.push(0, 1);
 * table.push(1, 1);
 * assert.deepEqual([...ownerCounts(table, 2)], [0, 2]);
 * ```
 */
export function ownerCounts(table: OwnerTable, executors: number): Int32Array {
  const counts = new Int32Array(executors);
  for (let s = 0; s < table.shards; s++) for (const e of table.members(s)) counts[e]!++;
  return counts;
}

/**
 * Writes the table back as ids, and counts the owners added to and removed
 * from each set relative to `before`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexExecutors } from "./_executors.ts";
 * import { loadOwners, toIds } from "./_owner_table.ts";
 *
 * const index = indexExecutors(["a", "b"], "zone");
 * const table = loadOwners([["a", "gone"]], index, 2);
 * table.push(0, 1);
 * assert.deepEqual(toIds(table, index, [["a", "gone"]]), {
 *   owners: [["a", "b"]],
 *   added: 1,
 *   removed: 1,
 * });
 * ```
 */
export function toIds(
  table: OwnerTable,
  index: ExecutorIndex,
  before: readonly (readonly string[])[],
): { owners: string[][]; added: number; removed: number } {
  let added = 0;
  let removed = 0;
  const owners = Array.from({ length: table.shards }, (_, s) => {
    const ids = Array.from(table.members(s), (e) => index.ids[e]!);
    const previous = before[s] ?? [];
    for (const id of ids) if (!previous.includes(id)) added++;
    previous.forEach((id, i) => {
      if (!ids.includes(id) && previous.indexOf(id) === i) removed++;
    });
    return ids;
  });
  return { owners, added, removed };
}
