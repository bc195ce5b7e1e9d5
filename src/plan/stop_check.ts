/**
 * "May these executors stop now?": the disruption budget of an executor drain
 * (`disruption_budget.ts`) asked for a set of executors across the namespaces
 * they serve, and, when the whole set may not go, which of them may go first.
 * Pure: the caller gathers each namespace's executors with
 * `budgetExecutors` (the same function a drain's check uses).
 *
 * @module
 */
import { type BudgetExecutor, type BudgetVerdict, checkDrainBudget } from "./disruption_budget.ts";

/** One namespace as the stop check sees it. */
export interface StopNamespace {
  /** Its name. */
  readonly namespace: string;
  /** Its executors (`matched` is ignored: the check sets it). */
  readonly executors: readonly BudgetExecutor[];
  /** Shards that have an owner or wait for one. */
  readonly shards: number;
  /** Largest share (0 to 1) of live executors that may be out at once. */
  readonly maxDrainedShare: number;
}

/** The answer. */
export interface StopCheck {
  /** True when every candidate may stop now, together. */
  readonly allowed: boolean;
  /** Per namespace: the budget's verdict on stopping every candidate. */
  readonly verdicts: ReadonlyMap<string, BudgetVerdict>;
  /** Candidates that may stop now together (all of them when `allowed`). */
  readonly mayStop: readonly string[];
  /** Candidates that must wait (none when `allowed`). */
  readonly mustWait: readonly string[];
}

/**
 * Checks stopping `candidates` against every namespace's budget. When the
 * whole set breaks a budget, picks a subset that keeps every budget: first the
 * candidates that take nothing more out (stale, already drained or leaving),
 * then the others in the order given, each kept if every namespace it serves
 * still passes with it added.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkStop } from "./stop_check.ts";
 *
 * const e = (executorId: string) =>
 *   ({ executorId, alive: true, active: true, drained: false, matched: false });
 * const ns = { namespace: "ns", executors: ["a", "b", "c", "d"].map(e), shards: 8, maxDrainedShare: 0.5 };
 * const check = checkStop([ns], ["a", "b", "c"]);
 * assert.equal(check.allowed, false);
 * assert.deepEqual(check.mayStop, ["a", "b"]);
 * assert.deepEqual(check.mustWait, ["c"]);
 * ```
 */
export function checkStop(
  namespaces: readonly StopNamespace[],
  candidates: readonly string[],
): StopCheck {
  const wanted = [...new Set(candidates)];
  const verdict = (ns: StopNamespace, stopping: ReadonlySet<string>) =>
    checkDrainBudget({
      executors: ns.executors.map((e) => ({ ...e, matched: stopping.has(e.executorId) })),
      shards: ns.shards,
      maxDrainedShare: ns.maxDrainedShare,
    });
  const all = new Set(wanted);
  const verdicts = new Map(namespaces.map((ns) => [ns.namespace, verdict(ns, all)]));
  const allowed = [...verdicts.values()].every((v) => v.ok);
  if (allowed) return { allowed, verdicts, mayStop: wanted, mustWait: [] };
  const servedBy = (id: string) =>
    namespaces.filter((ns) => ns.executors.some((e) => e.executorId === id));
  const takesOut = (id: string) =>
    servedBy(id).some((ns) =>
      ns.executors.some((e) => e.executorId === id && e.alive && !e.drained)
    );
  const order = [...wanted.filter((id) => !takesOut(id)), ...wanted.filter(takesOut)];
  const chosen = new Set<string>();
  for (const id of order) {
    const trial = new Set(chosen).add(id);
    if (servedBy(id).every((ns) => verdict(ns, trial).ok)) chosen.add(id);
  }
  return {
    allowed,
    verdicts,
    mayStop: wanted.filter((id) => chosen.has(id)),
    mustWait: wanted.filter((id) => !chosen.has(id)),
  };
}
