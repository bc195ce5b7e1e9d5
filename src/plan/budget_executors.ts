/**
 * The executors of a namespace as the disruption budget counts them. The one
 * place that reads the view for the budget: an operator drain
 * (`service/executor_drains.ts`) and a deploy tool's "may I stop these?"
 * (`service/stop_checks.ts`) both call it, so the two never disagree.
 *
 * - An executor is live while its heartbeats are recent, unless it reported
 *   DRAINED and holds nothing any more: it has left.
 * - It counts as out (drained) when an operator drain applies to it, or when
 *   it is leaving: it reported DRAINING (its shards are still moving away),
 *   or DRAINED while it still holds shards.
 * - It is eligible for shards when it reports ACTIVE and is not out.
 *
 * @module
 */
import type { ExecutorView, NamespaceView } from "../state/namespace_view.ts";
import type { BudgetExecutor } from "./disruption_budget.ts";

/**
 * The namespace's executors for {@linkcode checkDrainBudget}, each marked
 * `matched` when `matches` says the change being checked takes it out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceState } from "../state/namespace_state.ts";
 * import { budgetExecutors } from "./budget_executors.ts";
 *
 * const state = new NamespaceState("ns", { heartbeatTtlMs: 10_000 });
 * assert.deepEqual(budgetExecutors(state, 0, () => true), []);
 * ```
 */
export function budgetExecutors(
  view: NamespaceView,
  now: number,
  matches: (executor: ExecutorView) => boolean,
): BudgetExecutor[] {
  return [...view.executors()].map((e) => {
    const holds = view.shardsOf(e.executorId).size > 0;
    const leaving = e.status === "DRAINING" || (e.status === "DRAINED" && holds);
    return {
      executorId: e.executorId,
      alive: view.isAlive(e, now) && (e.status !== "DRAINED" || holds),
      active: e.status === "ACTIVE",
      drained: leaving || view.isExecutorDrained(e),
      matched: matches(e),
    };
  });
}

/**
 * Shards `executorId` still holds that are on their way to another owner: a
 * warm handover in flight (prepared by the incoming owner) or, in an
 * exclusive namespace, a release it has not confirmed yet. An executor with
 * some has not finished leaving.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceState } from "../state/namespace_state.ts";
 * import { pendingHandoversOf } from "./budget_executors.ts";
 *
 * assert.equal(pendingHandoversOf(new NamespaceState("ns", { heartbeatTtlMs: 1_000 }), "a"), 0);
 * ```
 */
export function pendingHandoversOf(view: NamespaceView, executorId: string): number {
  let pending = 0;
  for (const shard of view.shardsOf(executorId)) {
    const incoming = view.preparingOf(shard);
    if (
      (incoming !== undefined && incoming.executor !== executorId) ||
      view.releasedAt(shard) !== undefined
    ) pending++;
  }
  return pending;
}
