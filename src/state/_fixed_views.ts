/**
 * The shared state of `FixedOwnerIndex` (typed arrays by shard
 * number, executors as slots, other keys beside) and the read-only Map and
 * Set views every reader sees it through.
 *
 * @module
 */
import { indexKeys } from "../core/index_keys.ts";
import { ReadonlyMapBase, ReadonlySetBase } from "../core/readonly_views.ts";
import { ExecutorSlots, ShardLists } from "./_shard_lists.ts";
import { OwnerIndex } from "./owner_index.ts";

/** The shared state of a `FixedOwnerIndex` and its views. */
export class FixedCore {
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

/** Shard → owner, read from the arrays and then the other keys. */
export class OwnersView extends ReadonlyMapBase<string, string> {
  constructor(readonly core: FixedCore) {
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

/** Shard → the revision its owner was assigned at. */
export class RevisionsView extends ReadonlyMapBase<string, number> {
  constructor(readonly core: FixedCore) {
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

/** The shards one executor owns. */
export class ShardSetView extends ReadonlySetBase<string> {
  constructor(readonly core: FixedCore, readonly executorId: string) {
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

/** Executor → the shards it owns. */
export class ByExecutorView extends ReadonlyMapBase<string, ReadonlySet<string>> {
  constructor(readonly core: FixedCore) {
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
