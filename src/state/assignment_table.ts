/**
 * Who owns which shard in a namespace picture, with fencing tokens, commit
 * times and the shards being handed over. Part of {@linkcode NamespaceState},
 * which alone writes it; each owner change is reported to a recorder so the
 * state can keep its view log.
 *
 * @module
 */
import { applyReleases, tokenOf } from "../core/assignment.ts";
import type { AssignmentDelta } from "../core/types.ts";
import type { NamespaceSnapshot } from "../store/store.ts";
import { OwnerIndex, type OwnerTable } from "./owner_index.ts";
import type { ViewChange } from "./view_log.ts";

/** Commit times of revisions no shard holds any more are dropped this often (in changes). */
const PRUNE_TIMES_EVERY = 256;

/**
 * Owners, revisions, commit times and releases of a namespace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AssignmentTable } from "./assignment_table.ts";
 *
 * const table = new AssignmentTable();
 * const seen: string[] = [];
 * table.apply(1, { assign: { a: ["0"] }, unassign: [], remove: [], atMs: 5 }, 7, (c) =>
 *   seen.push(c.kind));
 * assert.equal(table.index.owners.get("0"), "a");
 * assert.equal(table.assignedAtMs("0"), 5);
 * assert.deepEqual(seen, ["owner"]);
 * ```
 */
export class AssignmentTable {
  /** Shard ↔ owner indexes. */
  readonly index: OwnerTable;
  /** Store revision → commit time of changes still held by a shard. */
  readonly times: Map<number, number> = new Map();
  /** Releasing shards → revision of the change that released them. */
  readonly releasing: Map<string, number> = new Map();

  /** An empty table over `index` (default: maps, any shard keys). */
  constructor(index: OwnerTable = new OwnerIndex()) {
    this.index = index;
  }

  /** When `shard` got its current owner (ms since epoch), if known. */
  assignedAtMs(shard: string): number | undefined {
    const revision = this.index.assignedRevisions.get(shard);
    return revision === undefined ? undefined : this.times.get(revision);
  }

  /** True when `executorId` owns a shard being released. */
  holdsReleasing(executorId: string): boolean {
    for (const shard of this.releasing.keys()) {
      if (this.index.owners.get(shard) === executorId) return true;
    }
    return false;
  }

  /** Replaces everything with the snapshot's assignment. */
  load(snapshot: NamespaceSnapshot): void {
    this.index.clear();
    const sets = snapshot.ownerSets;
    for (const [shard, owner] of snapshot.owners) {
      const revision = snapshot.assignedRevisions.get(shard) ?? snapshot.revision;
      const set = sets?.get(shard);
      if (set !== undefined && set.length > 1 && set[0] === owner) {
        this.index.set(shard, set, revision);
      } else this.index.setOwner(shard, owner, revision);
    }
    this.times.clear();
    for (const [revision, ms] of snapshot.assignmentTimes) this.times.set(revision, ms);
    this.releasing.clear();
    for (const [shard, rev] of snapshot.releasing ?? []) {
      if (this.index.owners.has(shard)) this.releasing.set(shard, rev);
    }
  }

  /** Applies change `seq` committed at `revision`; `record` hears every owner change. */
  apply(
    seq: number,
    delta: AssignmentDelta,
    revision: number,
    record: (change: ViewChange) => void,
  ): void {
    const { index } = this;
    if (delta.atMs !== undefined) this.times.set(revision, delta.atMs);
    if (seq % PRUNE_TIMES_EVERY === 0) this.#pruneTimes();
    for (const shard of [...delta.unassign, ...delta.remove]) {
      if (index.owners.has(shard)) record({ kind: "owner", shard, owner: undefined });
      index.delete(shard);
    }
    const sets = delta.sets;
    for (const [executor, shards] of Object.entries(delta.assign)) {
      for (const shard of shards) {
        const token = delta.tokens === undefined ? revision : tokenOf(delta, shard, revision);
        const set = sets?.[shard];
        if (set !== undefined && set.length > 1 && set[0] === executor) {
          if (!sameOwners(index.ownersOf(shard), set)) {
            record({ kind: "owner", shard, owner: executor, owners: set });
          }
          index.set(shard, set, token);
          continue;
        }
        if (index.owners.get(shard) !== executor || index.ownerSets.has(shard)) {
          record({ kind: "owner", shard, owner: executor });
        }
        index.setOwner(shard, executor, token);
      }
    }
    applyReleases(this.releasing, index.owners, delta, revision);
  }

  #pruneTimes(): void {
    const held = new Set(this.index.assignedRevisions.values());
    for (const revision of this.times.keys()) {
      if (!held.has(revision)) this.times.delete(revision);
    }
  }
}

function sameOwners(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
