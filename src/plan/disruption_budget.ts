/**
 * The disruption budget of an executor drain: a drain may not leave the
 * namespace's shards with no eligible owner, nor take more than
 * `maxDrainedShare` of its live executors out at once. Pure: the caller
 * gathers the executors from its view.
 *
 * @module
 */

/** The default of a namespace's `maxDrainedShare`. */
export const DEFAULT_MAX_DRAINED_SHARE = 0.5;

/** One executor as the budget sees it. */
export interface BudgetExecutor {
  /** Executor id. */
  readonly executorId: string;
  /** True when its heartbeats are recent. */
  readonly alive: boolean;
  /** True when it reports ACTIVE. */
  readonly active: boolean;
  /** True when a drain already applies to it. */
  readonly drained: boolean;
  /** True when the drain being checked applies to it. */
  readonly matched: boolean;
}

/** What a drain is checked against. */
export interface BudgetInput {
  /** The namespace's executors. */
  readonly executors: readonly BudgetExecutor[];
  /** Shards that have an owner or wait for one. */
  readonly shards: number;
  /** Largest share (0 to 1) of live executors that may be drained. */
  readonly maxDrainedShare: number;
}

/** The verdict, with the numbers behind it. */
export interface BudgetVerdict {
  /** True when the drain stays within the budget. */
  readonly ok: boolean;
  /** Live executors. */
  readonly live: number;
  /** Live executors drained now. */
  readonly drainedBefore: number;
  /** Live executors drained once the drain is made. */
  readonly drainedAfter: number;
  /** Live ACTIVE executors left undrained once the drain is made. */
  readonly eligibleAfter: number;
  /** Why it is refused (sentence case, with the numbers); empty when ok. */
  readonly reason: string;
}

/**
 * Checks a drain against the budget.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkDrainBudget } from "./disruption_budget.ts";
 *
 * const e = (executorId: string, drained: boolean, matched: boolean) =>
 *   ({ executorId, alive: true, active: true, drained, matched });
 * const verdict = checkDrainBudget({
 *   executors: [e("a", true, false), e("b", false, true)],
 *   shards: 12,
 *   maxDrainedShare: 0.5,
 * });
 * assert.equal(verdict.ok, false);
 * assert.equal(verdict.eligibleAfter, 0);
 * ```
 */
export function checkDrainBudget(input: BudgetInput): BudgetVerdict {
  if (!(input.maxDrainedShare >= 0 && input.maxDrainedShare <= 1)) {
    throw new RangeError(`maxDrainedShare must be from 0 to 1, got ${input.maxDrainedShare}`);
  }
  const live = input.executors.filter((e) => e.alive);
  const drainedBefore = live.filter((e) => e.drained).length;
  const drainedAfter = live.filter((e) => e.drained || e.matched).length;
  const eligibleBefore = live.filter((e) => e.active && !e.drained).length;
  const eligibleAfter = live.filter((e) => e.active && !e.drained && !e.matched).length;
  const reasons: string[] = [];
  if (drainedAfter > drainedBefore && drainedAfter > live.length * input.maxDrainedShare) {
    reasons.push(
      `it would drain ${drainedAfter} of ${live.length} live executors (${
        percent(drainedAfter / live.length)
      }), more than maxDrainedShare ${percent(input.maxDrainedShare)}`,
    );
  }
  if (input.shards > 0 && eligibleAfter === 0 && eligibleBefore > 0) {
    reasons.push(
      `it would leave ${input.shards} ${
        input.shards === 1 ? "shard" : "shards"
      } with no eligible owner (0 of ${live.length} live executors left undrained and ACTIVE)`,
    );
  }
  return {
    ok: reasons.length === 0,
    live: live.length,
    drainedBefore,
    drainedAfter,
    eligibleAfter,
    reason: reasons.length === 0 ? "" : `Refused: ${reasons.join("; and ")}`,
  };
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
