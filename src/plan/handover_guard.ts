/**
 * The rules of exclusive ownership, as pure questions about a namespace's
 * picture at one monotonic instant. A shard leaves its owner A only when A is
 * *free* of it:
 *
 * - A confirmed: the shard is releasing since store revision `r`, and A's
 *   latest recorded heartbeat was sent after A had acted on an answer computed
 *   from a picture at revision ≥ `r` (it echoes that answer's revision as
 *   `applied_revision`), and its reports no longer name the shard. Such an
 *   answer said RELEASING (or no longer listed the shard), and the SDK reports
 *   a shard until its processor has stopped. A report that was merely written
 *   after `r` proves nothing: a delayed heartbeat sent before A learned of the
 *   shard can land late; or
 * - A's lease certainly expired: this leader has not seen a heartbeat record of
 *   A for `lease + margin`. A stops every shard by itself once `lease` has
 *   passed since it *sent* its last recorded heartbeat, which is before the
 *   leader could see that record; the commit then also requires A's record to
 *   be unchanged, so a heartbeat that is in flight cannot be overtaken.
 *
 * And a shard goes to B only when no other executor whose lease may still run
 * reports it running.
 *
 * @module
 */
import type { PlanInput } from "./plan_input.ts";

/** How an exclusive namespace bounds ownership. */
export interface ExclusiveOwnership {
  /** An executor keeps its shards at most this long after sending its last recorded heartbeat. */
  readonly leaseMs: number;
}

/**
 * Extra wait, beyond the lease, before a silent executor's shards move: covers
 * clock-rate differences between hosts (1%) and timer lateness (200 ms).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leaseMarginMs } from "./handover_guard.ts";
 * assert.equal(leaseMarginMs(2_000), 220);
 * ```
 */
export function leaseMarginMs(leaseMs: number): number {
  return 200 + Math.ceil(leaseMs / 100);
}

/** Answers "may this shard leave this executor" and "may this shard go there" for one pass. */
export class HandoverGuard {
  readonly #input: PlanInput;
  readonly #now: number;
  readonly #expiryMs: number;
  #reporters: Map<string, string[]> | undefined;

  /** Questions about a pass's `input`, at its instant. */
  constructor(input: PlanInput, ownership: ExclusiveOwnership) {
    this.#input = input;
    this.#now = input.now;
    this.#expiryMs = ownership.leaseMs + leaseMarginMs(ownership.leaseMs);
  }

  /** Monotonic time at which `executorId`'s lease is certainly over (-Infinity when unknown). */
  expiresAt(executorId: string): number {
    const executor = this.#input.executors.get(executorId);
    return executor ? executor.seenAtMs + this.#expiryMs : -Infinity;
  }

  /** True when `executorId` has certainly stopped every shard on its own. */
  expired(executorId: string): boolean {
    return this.#now > this.expiresAt(executorId);
  }

  /** True when `owner` confirmed, after the shard's release, that it no longer runs `shard`. */
  confirmedStopped(shard: string, owner: string): boolean {
    const released = this.#input.releasing.get(shard);
    const executor = this.#input.executors.get(owner);
    if (released === undefined || executor === undefined) return false;
    return executor.appliedRevision >= released && executor.heartbeatRevision > released &&
      !executor.reports.has(shard);
  }

  /** True when `shard` may leave `owner` now. */
  free(shard: string, owner: string): boolean {
    return this.expired(owner) || this.confirmedStopped(shard, owner);
  }

  /** True when an executor other than `target`, whose lease may still run, reports `shard`. */
  blocked(shard: string, target: string): boolean {
    const reporters = this.#index().get(shard);
    return reporters !== undefined && reporters.some((e) => e !== target && !this.expired(e));
  }

  #index(): Map<string, string[]> {
    if (this.#reporters) return this.#reporters;
    const index = new Map<string, string[]>();
    for (const executor of this.#input.executors.values()) {
      for (const shard of executor.reports.keys()) {
        const list = index.get(shard);
        if (list) list.push(executor.executorId);
        else index.set(shard, [executor.executorId]);
      }
    }
    return this.#reporters = index;
  }
}
