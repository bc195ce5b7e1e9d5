/**
 * Measures handovers: from the commit that gives a shard to an executor to the
 * first report in which that executor says the shard is READY. Pure
 * bookkeeping fed by the cache; it keeps at most `limit` pending shards.
 *
 * @module
 */
import type { AssignmentDelta, ShardReports } from "../core/types.ts";

/** Shards awaiting their new owner's READY report, kept at most. */
export const PENDING_LIMIT = 100_000;

/** Tracks shards whose new owner has not confirmed them yet. */
export class HandoverTracker {
  /** Shard → its pending new owner. */
  #owner = new Map<string, string>();
  /** New owner → its pending shards and when each was committed: reports are checked per executor. */
  #byExecutor = new Map<string, Map<string, number>>();
  #limit: number;

  /** Tracks at most `limit` pending shards (more are not measured). */
  constructor(limit: number = PENDING_LIMIT) {
    this.#limit = limit;
  }

  /** Pending shards now. */
  get size(): number {
    return this.#owner.size;
  }

  /** Notes a committed change (its `atMs` is when the leader committed it). */
  assigned(delta: AssignmentDelta): void {
    for (const shard of delta.unassign) this.#forget(shard);
    for (const shard of delta.remove) this.#forget(shard);
    if (delta.atMs === undefined) return;
    for (const [executor, shards] of Object.entries(delta.assign)) {
      for (const shard of shards) {
        if (this.#owner.size >= this.#limit && !this.#owner.has(shard)) return;
        this.#forget(shard);
        this.#owner.set(shard, executor);
        let pending = this.#byExecutor.get(executor);
        if (!pending) this.#byExecutor.set(executor, pending = new Map());
        pending.set(shard, delta.atMs);
      }
    }
  }

  /** Notes an executor's reports at wall time `nowMs`; returns the handover latencies completed. */
  reported(
    executorId: string,
    reports: ShardReports,
    nowMs: number,
  ): number[] {
    const pending = this.#byExecutor.get(executorId);
    if (!pending) return [];
    const done: number[] = [];
    for (const [shard, atMs] of pending) {
      if (reports.get(shard)?.status !== "READY") continue;
      this.#forget(shard);
      done.push(Math.max(0, nowMs - atMs));
    }
    return done;
  }

  /** Forgets everything (after a reload). */
  clear(): void {
    this.#owner.clear();
    this.#byExecutor.clear();
  }

  #forget(shard: string): void {
    const executor = this.#owner.get(shard);
    if (executor === undefined) return;
    this.#owner.delete(shard);
    const pending = this.#byExecutor.get(executor);
    pending?.delete(shard);
    if (pending?.size === 0) this.#byExecutor.delete(executor);
  }
}
