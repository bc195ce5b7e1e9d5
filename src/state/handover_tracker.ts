/**
 * Measures handovers: from the commit that gives a shard to an executor to the
 * first report in which that executor says the shard is READY. Pure
 * bookkeeping fed by the cache; it keeps at most `limit` pending shards.
 *
 * @module
 */
import type { AssignmentDelta, ShardReport } from "../core/types.ts";

/** Shards awaiting their new owner's READY report, kept at most. */
export const PENDING_LIMIT = 100_000;

/** Tracks shards whose new owner has not confirmed them yet. */
export class HandoverTracker {
  #pending = new Map<string, { executor: string; atMs: number }>();
  #limit: number;

  /** Tracks at most `limit` pending shards (more are not measured). */
  constructor(limit: number = PENDING_LIMIT) {
    this.#limit = limit;
  }

  /** Pending shards now. */
  get size(): number {
    return this.#pending.size;
  }

  /** Notes a committed change (its `atMs` is when the leader committed it). */
  assigned(delta: AssignmentDelta): void {
    for (const shard of delta.unassign) this.#pending.delete(shard);
    for (const shard of delta.remove) this.#pending.delete(shard);
    if (delta.atMs === undefined) return;
    for (const [executor, shards] of Object.entries(delta.assign)) {
      for (const shard of shards) {
        if (this.#pending.size >= this.#limit && !this.#pending.has(shard)) return;
        this.#pending.set(shard, { executor, atMs: delta.atMs });
      }
    }
  }

  /** Notes an executor's reports at wall time `nowMs`; returns the handover latencies completed. */
  reported(
    executorId: string,
    reports: Readonly<Record<string, ShardReport>>,
    nowMs: number,
  ): number[] {
    if (this.#pending.size === 0) return [];
    const done: number[] = [];
    for (const [shard, report] of Object.entries(reports)) {
      const pending = this.#pending.get(shard);
      if (pending?.executor !== executorId || report.status !== "READY") continue;
      this.#pending.delete(shard);
      done.push(Math.max(0, nowMs - pending.atMs));
    }
    return done;
  }

  /** Forgets everything (after a reload). */
  clear(): void {
    this.#pending.clear();
  }
}
