/**
 * Compact bookkeeping for {@linkcode FixedOwnerIndex}: executor ids as small
 * slot numbers, and per slot the shard numbers it owns, each added and
 * removed in constant time (a removal moves the list's last shard into the
 * hole).
 *
 * @module
 */

/**
 * Executor ids ↔ slots. A slot is freed when its executor owns nothing any
 * more, and reused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExecutorSlots } from "./_shard_lists.ts";
 *
 * const slots = new ExecutorSlots();
 * const a = slots.slotFor("a");
 * assert.equal(slots.slotFor("a"), a);
 * assert.equal(slots.idOf(a), "a");
 * slots.free(a);
 * assert.equal(slots.find("a"), -1);
 * assert.equal(slots.slotFor("b"), a); // reused
 * ```
 */
export class ExecutorSlots {
  readonly #slots = new Map<string, number>();
  readonly #ids: (string | undefined)[] = [];
  readonly #free: number[] = [];

  /** The executor's slot, or -1. */
  find(executorId: string): number {
    return this.#slots.get(executorId) ?? -1;
  }

  /** The executor's slot, given one when it has none. */
  slotFor(executorId: string): number {
    const known = this.#slots.get(executorId);
    if (known !== undefined) return known;
    const slot = this.#free.pop() ?? this.#ids.length;
    this.#slots.set(executorId, slot);
    this.#ids[slot] = executorId;
    return slot;
  }

  /** The id in `slot` (undefined for a free one). */
  idOf(slot: number): string | undefined {
    return this.#ids[slot];
  }

  /** Every id in `slot` order, free slots as undefined: index it by slot, never keep it. */
  get ids(): readonly (string | undefined)[] {
    return this.#ids;
  }

  /** Number of executors holding a slot. */
  get size(): number {
    return this.#slots.size;
  }

  /** Executor ids with a slot, and their slots. */
  entries(): MapIterator<[string, number]> {
    return this.#slots.entries();
  }

  /** Frees `slot`. */
  free(slot: number): void {
    const id = this.#ids[slot];
    if (id === undefined) return;
    this.#slots.delete(id);
    this.#ids[slot] = undefined;
    this.#free.push(slot);
  }

  /** Frees every slot. */
  clear(): void {
    this.#slots.clear();
    this.#ids.length = 0;
    this.#free.length = 0;
  }
}

const EMPTY = new Int32Array(0);

/**
 * Per slot, the shard numbers (below `shardNum`) it owns, in no order. A
 * shard is in at most one list.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ShardLists } from "./_shard_lists.ts";
 *
 * const lists = new ShardLists(10);
 * lists.add(0, 3);
 * lists.add(0, 7);
 * lists.add(0, 5);
 * lists.remove(0, 3);
 * assert.deepEqual([...lists.of(0)].sort(), [5, 7]);
 * assert.equal(lists.count(0), 2);
 * ```
 */
export class ShardLists {
  #lists: Int32Array[] = [];
  #lengths: number[] = [];
  /** Shard → its index in its owner's list. */
  readonly #at: Int32Array;

  /** Lists over shard numbers `0..shardNum-1`. */
  constructor(shardNum: number) {
    this.#at = new Int32Array(shardNum);
  }

  /** Adds `shard` to the list of `slot` (it must be in no list). */
  add(slot: number, shard: number): void {
    let list = this.#lists[slot];
    const length = this.#lengths[slot] ?? 0;
    if (list === undefined || length === list.length) {
      const grown = new Int32Array(Math.max(16, length * 2));
      if (list !== undefined) grown.set(list);
      this.#lists[slot] = list = grown;
    }
    list[length] = shard;
    this.#at[shard] = length;
    this.#lengths[slot] = length + 1;
  }

  /** Removes `shard` from the list of `slot` (it must be there). */
  remove(slot: number, shard: number): void {
    const list = this.#lists[slot]!;
    const last = this.#lengths[slot]! - 1;
    const at = this.#at[shard]!;
    const moved = list[last]!;
    list[at] = moved;
    this.#at[moved] = at;
    this.#lengths[slot] = last;
    if (last === 0) delete this.#lists[slot]; // a freed slot keeps no memory
  }

  /** How many shards `slot` owns. */
  count(slot: number): number {
    return this.#lengths[slot] ?? 0;
  }

  /** The shards of `slot`: a view, valid until the next change. */
  of(slot: number): Int32Array {
    const list = this.#lists[slot];
    return list === undefined ? EMPTY : list.subarray(0, this.#lengths[slot]);
  }

  /** Empties every list. */
  clear(): void {
    this.#lists = [];
    this.#lengths = [];
  }
}
