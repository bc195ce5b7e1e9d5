/**
 * Warm handovers in flight in a namespace picture: which executor prepares
 * which shard, since which store revision (its fencing token after the
 * switch) and since when on this instance's monotonic clock (for the
 * leader's prepare timeout). Part of {@linkcode NamespaceState}, which alone
 * writes it.
 *
 * @module
 */
import { applyPrepares, type Preparing } from "../core/assignment.ts";
import type { AssignmentDelta } from "../core/types.ts";

const NONE: ReadonlySet<string> = new Set();

/**
 * Shards being prepared by their incoming owner, by shard and by executor.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PrepareTable } from "./prepare_table.ts";
 *
 * const table = new PrepareTable();
 * const owners = new Map([["0", "a"]]);
 * table.apply({ assign: {}, unassign: [], remove: [], prepare: { b: ["0"] } }, 7, owners, 100);
 * assert.deepEqual(table.byShard.get("0"), { executor: "b", revision: 7 });
 * assert.deepEqual([...table.shardsOf("b")], ["0"]);
 * assert.equal(table.sinceMs.get("0"), 100);
 * table.apply({ assign: {}, unassign: [], remove: [], unprepare: ["0"] }, 8, owners, 200);
 * assert.equal(table.byShard.size, 0);
 * assert.equal(table.shardsOf("b").size, 0);
 * ```
 */
export class PrepareTable {
  /** Shard → its incoming owner and the revision of its prepare. */
  readonly byShard: Map<string, Preparing> = new Map();
  /** Shard → local monotonic time its prepare was first seen by this instance. */
  readonly sinceMs: Map<string, number> = new Map();
  /** Shard → when its prepare was committed (ms since epoch, the leader's clock), when known. */
  readonly atMs: Map<string, number> = new Map();
  readonly #byExecutor = new Map<string, Set<string>>();

  /** Shards `executorId` is preparing. */
  shardsOf(executorId: string): ReadonlySet<string> {
    return this.#byExecutor.get(executorId) ?? NONE;
  }

  /** Executors preparing at least one shard, with their shards. */
  get byExecutor(): ReadonlyMap<string, ReadonlySet<string>> {
    return this.#byExecutor;
  }

  /**
   * Replaces everything with `preparing` (from a snapshot), seen at monotonic
   * `now`; `times` gives commit times by revision, where known.
   */
  load(
    preparing: ReadonlyMap<string, Preparing> | undefined,
    owners: ReadonlyMap<string, string>,
    now: number,
    times?: ReadonlyMap<number, number>,
  ): void {
    this.byShard.clear();
    this.sinceMs.clear();
    this.atMs.clear();
    this.#byExecutor.clear();
    for (const [shard, entry] of preparing ?? []) {
      if (!owners.has(shard)) continue;
      this.byShard.set(shard, entry);
      this.sinceMs.set(shard, now);
      const at = times?.get(entry.revision);
      if (at !== undefined) this.atMs.set(shard, at);
      this.#add(entry.executor, shard);
    }
  }

  /**
   * Applies `delta`, committed at `revision` and seen at monotonic `now`;
   * `owners` is the shard → owner map after the delta.
   */
  apply(
    delta: AssignmentDelta,
    revision: number,
    owners: ReadonlyMap<string, string>,
    now: number,
  ): void {
    if (this.byShard.size === 0 && delta.prepare === undefined) return;
    const touched: string[] = [];
    const before = new Map<string, string>();
    const note = (shard: string) => {
      const entry = this.byShard.get(shard);
      if (entry && !before.has(shard)) before.set(shard, entry.executor);
      touched.push(shard);
    };
    if (this.byShard.size > 0) {
      for (const shard of delta.unassign) note(shard);
      for (const shard of delta.remove) note(shard);
      for (const shard of delta.unprepare ?? []) note(shard);
      for (const shards of Object.values(delta.assign)) for (const shard of shards) note(shard);
    }
    for (const shards of Object.values(delta.prepare ?? {})) {
      for (const shard of shards) note(shard);
    }
    applyPrepares(this.byShard, owners, delta, revision);
    for (const shard of touched) {
      const was = before.get(shard);
      const now_ = this.byShard.get(shard);
      if (was !== undefined && was !== now_?.executor) this.#remove(was, shard);
      if (now_ === undefined) {
        this.sinceMs.delete(shard);
        this.atMs.delete(shard);
      } else if (was !== now_.executor) {
        this.#add(now_.executor, shard);
        this.sinceMs.set(shard, now);
        if (delta.atMs !== undefined) this.atMs.set(shard, delta.atMs);
      }
    }
  }

  #add(executorId: string, shard: string): void {
    let set = this.#byExecutor.get(executorId);
    if (!set) this.#byExecutor.set(executorId, set = new Set());
    set.add(shard);
  }

  #remove(executorId: string, shard: string): void {
    const set = this.#byExecutor.get(executorId);
    if (!set) return;
    set.delete(shard);
    if (set.size === 0) this.#byExecutor.delete(executorId);
  }
}
