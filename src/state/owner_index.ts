/**
 * Who owns which shard, indexed both ways, with the fencing token of each
 * shard and a stamp per executor that moves whenever that executor's shards
 * or their tokens change. A shard has one owner, or (replicated namespaces)
 * an owner set whose first member is the primary.
 *
 * @module
 */

import { compareShardKeys } from "../core/shard_key_order.ts";

const EMPTY: ReadonlySet<string> = new Set();

/**
 * The compact part of a fixed namespace's owners, for planners' fast paths:
 * read-only, valid until the next change, never kept. Shards whose owner is
 * not here (`ownerSlots[i] === -1`) may still be owned through the general
 * collections (several owners); {@linkcode CompactOwners.complete} says when
 * none is.
 */
export interface CompactOwners {
  /** The namespace's shard count: shard `i` is key `keys[i]`. */
  readonly shardNum: number;
  /** The shared keys "0".."n-1". */
  readonly keys: readonly string[];
  /** Shard number → its owner's slot, -1 when none is kept here. */
  readonly ownerSlots: Int32Array;
  /** Slot → executor id (undefined for a free slot). */
  readonly slotIds: readonly (string | undefined)[];
  /** Executor id → its slot, -1 when it owns nothing here. */
  slotOf(executorId: string): number;
  /** True when every owned shard is here: no other keys, no owner sets. */
  readonly complete: boolean;
}

/**
 * Who owns which shard, as the assignment table reads and writes it. Two
 * implementations: {@linkcode OwnerIndex} (maps, any shard keys) and
 * `FixedOwnerIndex` (typed arrays by shard number, for fixed namespaces).
 */
export interface OwnerTable {
  /** Shard → owner (the primary, first of the set, of a shard with several owners). */
  readonly owners: ReadonlyMap<string, string>;
  /** Shard → full owner set (primary first) of the shards with more than one owner. */
  readonly ownerSets: ReadonlyMap<string, readonly string[]>;
  /** Owner → its shards (a shard with several owners is listed under each). */
  readonly byExecutor: ReadonlyMap<string, ReadonlySet<string>>;
  /** Shard → revision of the change that gave it its owner or owner set: its fencing token. */
  readonly assignedRevisions: ReadonlyMap<string, number>;
  /** Forgets every owner; every executor's stamp changes. */
  clear(): void;
  /** A number that changes whenever the shards of `executorId` or their tokens change, and never comes back. */
  stampOf(executorId: string): number;
  /** The owners of `shard`, primary first (empty when it has none). */
  ownersOf(shard: string): readonly string[];
  /** Shards owned by `executorId` (alone or as one of several owners). */
  shardsOf(executorId: string): ReadonlySet<string>;
  /** The same shards in a new array, in `compareShardKeys` order. */
  sortedShardsOf(executorId: string): string[];
  /** Gives `shard` the one owner `owner` at `revision`. */
  setOwner(shard: string, owner: string, revision: number): void;
  /** Gives `shard` the owners `set` (primary first, distinct, at least one) at `revision`. */
  set(shard: string, set: readonly string[], revision: number): void;
  /** Takes every owner from `shard`. */
  delete(shard: string): void;
  /** A fixed namespace's arrays, for planners' fast paths; undefined for maps. */
  compact(): CompactOwners | undefined;
}

/**
 * The owner maps of a namespace picture. Single-owner shards touch only
 * `owners`, `byExecutor` and `assignedRevisions`; `ownerSets` holds the sets
 * of shards with more than one owner and stays empty otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OwnerIndex } from "./owner_index.ts";
 *
 * const index = new OwnerIndex();
 * index.set("0", ["a", "b"], 7);
 * assert.equal(index.owners.get("0"), "a");
 * assert.ok(index.shardsOf("b").has("0"));
 * ```
 */
export class OwnerIndex implements OwnerTable {
  /** Shard → owner (the primary, first of the set, of a shard with several owners). */
  readonly owners: Map<string, string> = new Map();
  /** Shard → full owner set (primary first) of the shards with more than one owner. */
  readonly ownerSets: Map<string, readonly string[]> = new Map();
  /** Owner → its shards (a shard with several owners is listed under each). */
  readonly byExecutor: Map<string, Set<string>> = new Map();
  /**
   * Shard → revision of the change that gave it its owner or, with several
   * owners, last changed its owner set: the fencing token of every owner.
   */
  readonly assignedRevisions: Map<string, number> = new Map();
  /** Executor → the stamp of its last shard set change; stamps never repeat. */
  #stamps = new Map<string, number>();
  #stamp = 0;
  #clearedStamp = 0;

  /** None: maps have no arrays to offer. */
  compact(): undefined {
    return undefined;
  }

  /** Forgets every owner; every executor's stamp changes. */
  clear(): void {
    this.owners.clear();
    this.ownerSets.clear();
    this.byExecutor.clear();
    this.assignedRevisions.clear();
    this.#stamps.clear();
    this.#clearedStamp = ++this.#stamp;
  }

  /**
   * A number that changes whenever the shards of `executorId` or their
   * fencing tokens change, and never comes back.
   */
  stampOf(executorId: string): number {
    return this.#stamps.get(executorId) ?? this.#clearedStamp;
  }

  /** The owners of `shard`, primary first (empty when it has none). */
  ownersOf(shard: string): readonly string[] {
    const set = this.ownerSets.get(shard);
    if (set !== undefined) return set;
    const owner = this.owners.get(shard);
    return owner === undefined ? [] : [owner];
  }

  /** Shards owned by `executorId` (alone or as one of several owners). */
  shardsOf(executorId: string): ReadonlySet<string> {
    return this.byExecutor.get(executorId) ?? EMPTY;
  }

  /** The shards of `executorId` in a new array, in `compareShardKeys` order. */
  sortedShardsOf(executorId: string): string[] {
    return [...this.shardsOf(executorId)].sort(compareShardKeys);
  }

  /** Gives `shard` the one owner `owner` at `revision` (no array: the common case). */
  setOwner(shard: string, owner: string, revision: number): void {
    this.delete(shard);
    this.owners.set(shard, owner);
    this.#add(owner, shard);
    this.assignedRevisions.set(shard, revision);
  }

  /** Gives `shard` the owners `set` (primary first, distinct, at least one) at `revision`. */
  set(shard: string, set: readonly string[], revision: number): void {
    if (set.length === 1) return this.setOwner(shard, set[0]!, revision);
    this.delete(shard);
    this.owners.set(shard, set[0]!);
    this.ownerSets.set(shard, set);
    for (const owner of set) this.#add(owner, shard);
    this.assignedRevisions.set(shard, revision);
  }

  /** Takes every owner from `shard`. */
  delete(shard: string): void {
    const owner = this.owners.get(shard);
    if (owner === undefined) return;
    this.owners.delete(shard);
    this.assignedRevisions.delete(shard);
    const several = this.ownerSets.get(shard);
    if (several === undefined) return this.#drop(owner, shard);
    this.ownerSets.delete(shard);
    for (const member of several) this.#drop(member, shard);
  }

  #add(owner: string, shard: string): void {
    this.#stamps.set(owner, ++this.#stamp);
    let shards = this.byExecutor.get(owner);
    if (!shards) this.byExecutor.set(owner, shards = new Set());
    shards.add(shard);
  }

  #drop(owner: string, shard: string): void {
    this.#stamps.set(owner, ++this.#stamp);
    const set = this.byExecutor.get(owner);
    set?.delete(shard);
    if (set?.size === 0) this.byExecutor.delete(owner);
  }
}
