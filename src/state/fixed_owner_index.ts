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
 * in an ordinary `OwnerIndex` beside the arrays; every reader sees
 * one index through read-only views.
 *
 * @module
 */
import { compareShardKeys } from "../core/shard_key_order.ts";
import {
  ByExecutorView,
  FixedCore,
  OwnersView,
  RevisionsView,
  ShardSetView,
} from "./_fixed_views.ts";
import type { CompactOwners, OwnerTable } from "./owner_index.ts";

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
  readonly #core: FixedCore;
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
    this.#core = new FixedCore(shardNum);
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
