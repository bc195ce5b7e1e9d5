/**
 * The reassignment bound the chaos checker enforces, derived from the
 * service's and the executors' timings.
 *
 * @module
 */

/** The timings the bound depends on, in milliseconds. */
export interface Timings {
  /** `process.heartbeatTTL`: an executor unheard for longer is stale. */
  readonly heartbeatTTLMs: number;
  /** `process.period`: longest time between rebalance passes. */
  readonly periodMs: number;
  /** `leaderStore.storageParams.electionTTL`: a dead leader's lease. */
  readonly electionTTLMs: number;
  /** `election.failedElectionCooldown`. */
  readonly failedElectionCooldownMs: number;
  /** `election.maxRandomDelay`. */
  readonly maxRandomDelayMs: number;
  /** The executors' `heartbeatIntervalMs` (jittered by ±10%). */
  readonly heartbeatIntervalMs: number;
  /** The executors' `heartbeatTimeoutMs`: a heartbeat to a dead or paused instance fails after this. */
  readonly heartbeatTimeoutMs: number;
  /**
   * An exclusive namespace's `ownershipLease`: a crashed executor's shards
   * move about `lease + 200 ms + 1%` after its last recorded heartbeat
   * instead of after `heartbeatTTL`, whichever is later.
   * @default {undefined} no exclusive namespace
   */
  readonly ownershipLeaseMs?: number;
}

/**
 * etcd deletes a key about 0.4 s after its lease expires, and a lease is
 * granted in whole seconds; one second covers both.
 */
export const LEASE_SLACK_MS = 1_000;

/**
 * How long a shard may stay without a running processor once its owner is
 * gone, while etcd has a quorum:
 *
 * - `heartbeatTTL` (or, with an exclusive namespace, `ownershipLease + 200 ms
 *   + 1%` when that is longer): until the service finds the old owner stale
 *   or its lease expired;
 * - `+ period`: until the next rebalance pass;
 * - `+ electionTTL + lease slack + failedElectionCooldown + maxRandomDelay`:
 *   when the namespace's leader died at the same time, until another
 *   instance leads;
 * - `+ heartbeatTimeout + 2 × 1.1 × heartbeatInterval`: until the new owner's
 *   next heartbeat (after failing over from a dead instance) brings the
 *   assignment and its processor starts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reassignmentBoundMs } from "./bounds.ts";
 *
 * const bound = reassignmentBoundMs({
 *   heartbeatTTLMs: 3_000, periodMs: 500, electionTTLMs: 2_000, failedElectionCooldownMs: 200,
 *   maxRandomDelayMs: 100, heartbeatIntervalMs: 500, heartbeatTimeoutMs: 1_000,
 * });
 * assert.equal(bound, 8_900);
 * ```
 */
export function reassignmentBoundMs(t: Timings): number {
  for (const [name, value] of Object.entries(t)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new RangeError(`Timing ${name} must be a non-negative number of ms, got ${value}`);
    }
  }
  const lease = t.ownershipLeaseMs === undefined ? 0 : Math.ceil(t.ownershipLeaseMs * 1.01) + 200;
  const staleAndPass = Math.max(t.heartbeatTTLMs, lease) + t.periodMs;
  const newLeader = t.electionTTLMs + LEASE_SLACK_MS + t.failedElectionCooldownMs +
    t.maxRandomDelayMs;
  const newOwnerHears = t.heartbeatTimeoutMs + Math.ceil(2 * 1.1 * t.heartbeatIntervalMs);
  return staleAndPass + newLeader + newOwnerHears;
}
