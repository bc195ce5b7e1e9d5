/**
 * The owner index of a fixed namespace, kept by shard number: a fixed
 * namespace's shards are "0".."n-1", so owners, fencing tokens and each
 * executor's shards live in typed arrays indexed by shard number, with
 * executors as small slot numbers. At 1,000,000 shards that is about 20 MB
 * against about 76 MB of string-keyed maps and sets, and a planner can read
 * an owner without a hash lookup ({@linkcode FixedOwnerIndex.compact}).
 *
 * Keys outside "0".."n-1" (left by a smaller `shardNum`, or not canonical
 * numbers) and shards with several owners (a replicated namespace) are kept
 * in an ordinary {@linkcode OwnerIndex} beside the arrays; every reader sees
 * one index through read-only views.
 *
 * @module
 */
import { indexKeys } from "../core/index_keys.ts";
import { compareShardKeys } from "../core/shard_key_order.ts";
import { ReadonlyMapBase, ReadonlySetBase } from "../core/readonly_views.ts";
import { ExecutorSlots, ShardLists } from "./_shard_lists.ts";
import { type CompactOwners, OwnerIndex, type OwnerTable } from "./owner_index.ts";

/** The shared state of the index and its views. */
class Core {
  readonly keys: readonly string[];
  readonly owner: Int32Array;
  readonly revision: Float64Array;
  readonly slots = new ExecutorSlots();
  readonly lists: ShardLists;
  /** Shards owned through the arrays. */
  owned = 0;
  /** Other keys and shards with several owners. */
  readonly other = new OwnerIndex();

  constructor(readonly shardNum: number) {
    this.keys = indexKeys(shardNum);
    this.owner = new Int32Array(shardNum).fill(-1);
    this.revision = new Float64Array(shardNum);
    this.lists = new ShardLists(shardNum);
  }

  /** `shard`'s number when it is one of "0".."n-1", else -1. */
  indexOf(shard: string): number {
    const i = +shard;
    return i >= 0 && i < this.shardNum && this.keys[i] === shard ? i : -1;
  }
}

/**
 * Owners of a fixed namespace of `shardNum` shards.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FixedOwnerIndex } from "./fixed_owner_index.ts";
 *
 * const index = new FixedOwnerIndex(4);
 * index.setOwner("1", "a", 7);
 * index.set("2", ["a", "b"], 8); // several owners: kept beside the arrays
 * index.setOwner("x", "b", 9); // not a shard number: likewise
 * assert.equal(index.owners.get("1"), "a");
 * assert.equal(index.assignedRevisions.get("2"), 8);
 * assert.deepEqual([...index.shardsOf("a")].sort(), ["1", "2"]);
 * assert.deepEqual([...index.owners.keys()], ["1", "2", "x"]);
 * assert.equal(index.compact().ownerSlots[1], index.compact().slotOf("a"));
 * ```
 */
export class FixedOwnerIndex implements OwnerTable {
  readonly #core: Core;
  readonly #stamps = new Map<string, number>();
  #stamp = 0;
  #clearedStamp = 0;
  /** Shard → owner (the primary of a shard with several owners). */
  readonly owners: ReadonlyMap<string, string>;
  /** Shard → revision of the change that gave it its owners: its fencing token. */
  readonly assignedRevisions: ReadonlyMap<string, number>;
  /** Owner → its shards. */
  readonly byExecutor: ReadonlyMap<string, ReadonlySet<string>>;

  /** An empty index of shards "0".."shardNum-1". */
  constructor(shardNum: number) {
    this.#core = new Core(shardNum);
    this.owners = new OwnersView(this.#core);
    this.assignedRevisions = new RevisionsView(this.#core);
    this.byExecutor = new ByExecutorView(this.#core);
  }

  /** Shard → full owner set of the shards with more than one owner. */
  get ownerSets(): ReadonlyMap<string, readonly string[]> {
    return this.#core.other.ownerSets;
  }

  /** The arrays, for planners (see {@linkcode CompactOwners}). */
  compact(): CompactOwners {
    const core = this.#core;
    return {
      shardNum: core.shardNum,
      keys: core.keys,
      ownerSlots: core.owner,
      slotIds: core.slots.ids,
      slotOf: (executorId) => core.slots.find(executorId),
      complete: core.other.owners.size === 0,
    };
  }

  /** Forgets every owner; every executor's stamp changes. */
  clear(): void {
    const core = this.#core;
    core.owner.fill(-1);
    core.lists.clear();
    core.slots.clear();
    core.owned = 0;
    core.other.clear();
    this.#stamps.clear();
    this.#clearedStamp = ++this.#stamp;
  }

  /** A number that changes whenever the shards of `executorId` or their tokens change. */
  stampOf(executorId: string): number {
    return this.#stamps.get(executorId) ?? this.#clearedStamp;
  }

  /** The owners of `shard`, primary first (empty when it has none). */
  ownersOf(shard: string): readonly string[] {
    const core = this.#core;
    const i = core.indexOf(shard);
    const slot = i < 0 ? -1 : core.owner[i]!;
    return slot >= 0 ? [core.slots.idOf(slot)!] : core.other.ownersOf(shard);
  }

  /** Shards owned by `executorId`: a view, valid until the next change. */
  shardsOf(executorId: string): ReadonlySet<string> {
    return new ShardSetView(this.#core, executorId);
  }

  /**
   * The shards of `executorId` in a new array, in `compareShardKeys` order:
   * shard numbers sorted as numbers, which is that order, without comparing
   * strings.
   */
  sortedShardsOf(executorId: string): string[] {
    const core = this.#core;
    const slot = core.slots.find(executorId);
    const numbers = slot < 0 ? [] : core.lists.of(slot).slice().sort();
    const sorted = Array.from(numbers, (n) => core.keys[n]!);
    const others = core.other.sortedShardsOf(executorId);
    return others.length === 0 ? sorted : [...sorted, ...others].sort(compareShardKeys);
  }

  /** Gives `shard` the one owner `owner` at `revision`. */
  setOwner(shard: string, owner: string, revision: number): void {
    const core = this.#core;
    const i = core.indexOf(shard);
    this.#leaveOther(shard);
    if (i < 0) {
      core.other.setOwner(shard, owner, revision);
    } else {
      const slot = core.slots.slotFor(owner);
      const before = core.owner[i]!;
      if (before !== slot) {
        if (before >= 0) this.#detach(i, before);
        else core.owned++;
        core.lists.add(slot, i);
        core.owner[i] = slot;
      }
      core.revision[i] = revision;
    }
    this.#touch(owner);
  }

  /** Gives `shard` the owners `set` (primary first, distinct, at least one) at `revision`. */
  set(shard: string, set: readonly string[], revision: number): void {
    if (set.length === 1) return this.setOwner(shard, set[0]!, revision);
    this.#dropCompact(shard);
    this.#leaveOther(shard);
    this.#core.other.set(shard, set, revision);
    for (const owner of set) this.#touch(owner);
  }

  /** Takes every owner from `shard`. */
  delete(shard: string): void {
    this.#dropCompact(shard);
    this.#leaveOther(shard);
  }

  #dropCompact(shard: string): void {
    const core = this.#core;
    const i = core.indexOf(shard);
    const slot = i < 0 ? -1 : core.owner[i]!;
    if (slot < 0) return;
    this.#detach(i, slot);
    core.owner[i] = -1;
    core.owned--;
  }

  /** Takes `shard` out of the other index, if it is there. */
  #leaveOther(shard: string): void {
    const other = this.#core.other;
    if (!other.owners.has(shard)) return;
    for (const owner of other.ownersOf(shard)) this.#touch(owner);
    other.delete(shard);
  }

  /** Takes shard `i` from `slot`'s list; frees the slot when it owns nothing more. */
  #detach(i: number, slot: number): void {
    const core = this.#core;
    core.lists.remove(slot, i);
    this.#touch(core.slots.idOf(slot)!);
    if (core.lists.count(slot) === 0) core.slots.free(slot);
  }

  #touch(executorId: string): void {
    this.#stamps.set(executorId, ++this.#stamp);
  }
}

class OwnersView extends ReadonlyMapBase<string, string> {
  constructor(readonly core: Core) {
    super();
  }
  get(shard: string): string | undefined {
    const core = this.core;
    const i = core.indexOf(shard);
    const slot = i < 0 ? -1 : core.owner[i]!;
    return slot >= 0 ? core.slots.idOf(slot) : core.other.owners.get(shard);
  }
  get size(): number {
    return this.core.owned + this.core.other.owners.size;
  }
  *entries(): MapIterator<[string, string]> {
    const { owner, keys, slots, other } = this.core;
    for (let i = 0; i < owner.length; i++) {
      const slot = owner[i]!;
      if (slot >= 0) yield [keys[i]!, slots.idOf(slot)!];
    }
    yield* other.owners.entries();
  }
}

class RevisionsView extends ReadonlyMapBase<string, number> {
  constructor(readonly core: Core) {
    super();
  }
  get(shard: string): number | undefined {
    const core = this.core;
    const i = core.indexOf(shard);
    return i >= 0 && core.owner[i]! >= 0
      ? core.revision[i]
      : core.other.assignedRevisions.get(shard);
  }
  get size(): number {
    return this.core.owned + this.core.other.assignedRevisions.size;
  }
  *entries(): MapIterator<[string, number]> {
    const { owner, keys, revision, other } = this.core;
    for (let i = 0; i < owner.length; i++) {
      if (owner[i]! >= 0) yield [keys[i]!, revision[i]!];
    }
    yield* other.assignedRevisions.entries();
  }
}

class ShardSetView extends ReadonlySetBase<string> {
  constructor(readonly core: Core, readonly executorId: string) {
    super();
  }
  has(shard: string): boolean {
    const core = this.core;
    const i = core.indexOf(shard);
    const slot = i < 0 ? -1 : core.owner[i]!;
    if (slot >= 0) return core.slots.idOf(slot) === this.executorId;
    return core.other.shardsOf(this.executorId).has(shard);
  }
  get size(): number {
    const core = this.core;
    const slot = core.slots.find(this.executorId);
    const here = slot < 0 ? 0 : core.lists.count(slot);
    return here + core.other.shardsOf(this.executorId).size;
  }
  *[Symbol.iterator](): SetIterator<string> {
    const core = this.core;
    const slot = core.slots.find(this.executorId);
    if (slot >= 0) { for (const i of core.lists.of(slot)) yield core.keys[i]!; }
    yield* core.other.shardsOf(this.executorId);
  }
}

class ByExecutorView extends ReadonlyMapBase<string, ReadonlySet<string>> {
  constructor(readonly core: Core) {
    super();
  }
  get(executorId: string): ReadonlySet<string> | undefined {
    const { slots, other } = this.core;
    return slots.find(executorId) >= 0 || other.byExecutor.has(executorId)
      ? new ShardSetView(this.core, executorId)
      : undefined;
  }
  get size(): number {
    const { slots, other } = this.core;
    let size = slots.size;
    for (const id of other.byExecutor.keys()) if (slots.find(id) < 0) size++;
    return size;
  }
  *entries(): MapIterator<[string, ReadonlySet<string>]> {
    const { slots, other } = this.core;
    for (const [id] of slots.entries()) yield [id, new ShardSetView(this.core, id)];
    for (const id of other.byExecutor.keys()) {
      if (slots.find(id) < 0) yield [id, new ShardSetView(this.core, id)];
    }
  }
}
