/**
 * "May these executors stop now?", asked by a deploy tool before it stops
 * hosts. Answered per namespace and overall from the disruption budget of an
 * executor drain (the same `budgetExecutors` and `checkDrainBudget` a drain's
 * check runs), so a drain of the same executors is refused exactly when this
 * says they must wait.
 *
 * @module
 */
import type { Clock } from "../core/clock.ts";
import { drainMatches } from "../core/executor_drain.ts";
import type { ExecutorStatus } from "../core/types.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import { budgetExecutors, pendingHandoversOf } from "../plan/budget_executors.ts";
import { checkStop, type StopNamespace } from "../plan/stop_check.ts";

/** Which executors are asked about: by id, or by a metadata selector. */
export type StopTarget =
  | { readonly executorIds: readonly string[]; readonly selector?: undefined }
  | { readonly selector: Readonly<Record<string, string>>; readonly executorIds?: undefined };

/** One executor of a namespace, as the answer shows it. */
export interface StopExecutorReport {
  /** Executor id. */
  readonly executorId: string;
  /** The status it reports. */
  readonly status: ExecutorStatus;
  /** True while its heartbeats are recent. */
  readonly alive: boolean;
  /** True when an operator drain applies to it. */
  readonly drained: boolean;
  /** True when it reported DRAINING, or DRAINED while it still holds shards. */
  readonly leaving: boolean;
  /** Shards it holds. */
  readonly shards: number;
  /** Shards it holds that are on their way to another owner: it has not finished. */
  readonly pendingHandovers: number;
  /** True when it may stop now (with the others that may). */
  readonly mayStop: boolean;
}

/** One namespace's part of the answer. */
export interface StopNamespaceReport {
  /** The namespace. */
  readonly namespace: string;
  /** True for exclusive ownership. */
  readonly exclusive: boolean;
  /** True when every executor asked about may stop, as far as this namespace goes. */
  readonly allowed: boolean;
  /** Why not (sentence case, with the numbers); empty when allowed. */
  readonly reason: string;
  /** Live executors. */
  readonly live: number;
  /** Live executors out now (drained or leaving). */
  readonly outBefore: number;
  /** Live executors out once those asked about stop. */
  readonly outAfter: number;
  /** Live ACTIVE executors left to own shards once those asked about stop. */
  readonly eligibleAfter: number;
  /** The namespace's `maxDrainedShare`. */
  readonly maxDrainedShare: number;
  /** The executors asked about that it knows, sorted by id. */
  readonly executors: readonly StopExecutorReport[];
}

/** The answer. */
export interface StopAnswer {
  /** True when every executor asked about may stop now. */
  readonly allowed: boolean;
  /** The executors asked about (for a selector: those it matches), sorted. */
  readonly executorIds: readonly string[];
  /** Those that may stop now, together (all of them when allowed). */
  readonly mayStop: readonly string[];
  /** Those that must wait. */
  readonly mustWait: readonly string[];
  /** Ids asked about that no namespace looked in knows (they may stop). */
  readonly unknown: readonly string[];
  /** Per namespace that knows one of them, sorted by name. */
  readonly namespaces: readonly StopNamespaceReport[];
}

/** Answers "may these executors stop now?". */
export class StopChecks {
  #all: () => readonly NamespaceRuntime[];
  #lookup: (namespace: string) => NamespaceRuntime;
  #clock: Clock;

  /** Looks in `all()`, or in one namespace found with `lookup` (which throws for unknown ones). */
  constructor(
    all: () => readonly NamespaceRuntime[],
    lookup: (namespace: string) => NamespaceRuntime,
    clock: Clock,
  ) {
    this.#all = all;
    this.#lookup = lookup;
    this.#clock = clock;
  }

  /** Checks stopping `target` in `namespace`, or in every namespace when it is undefined. */
  check(namespace: string | undefined, target: StopTarget): StopAnswer {
    const runtimes = namespace === undefined
      ? [...this.#all()].sort((a, b) => (a.name < b.name ? -1 : 1))
      : [this.#lookup(namespace)];
    const now = this.#clock.monotonic();
    const ids = new Set<string>(target.executorIds ?? []);
    if (target.selector !== undefined) {
      for (const runtime of runtimes) {
        for (const e of runtime.view.executors()) {
          if (drainMatches({ selector: target.selector }, e.executorId, e.metadata)) {
            ids.add(e.executorId);
          }
        }
      }
    }
    const candidates = [...ids].sort();
    const inputs: StopNamespace[] = runtimes.map((runtime) => {
      const state = runtime.view;
      return {
        namespace: runtime.name,
        executors: budgetExecutors(state, now, () => false),
        shards: state.ownedCount + state.requestCount,
        maxDrainedShare: runtime.policy.budgets.maxDrainedShare,
      };
    });
    const check = checkStop(inputs, candidates);
    const may = new Set(check.mayStop);
    const known = new Set<string>();
    const namespaces: StopNamespaceReport[] = [];
    runtimes.forEach((runtime, i) => {
      const state = runtime.view;
      const executors = candidates.flatMap((id): StopExecutorReport[] => {
        const e = state.executor(id);
        const counted = inputs[i]?.executors.find((b) => b.executorId === id);
        if (e === undefined || counted === undefined) return [];
        known.add(id);
        return [{
          executorId: id,
          status: e.status,
          alive: state.isAlive(e, now),
          drained: state.isExecutorDrained(e),
          leaving: counted.drained && !state.isExecutorDrained(e),
          shards: state.shardsOf(id).size,
          pendingHandovers: pendingHandoversOf(state, id),
          mayStop: may.has(id),
        }];
      });
      if (namespace === undefined && executors.length === 0) return;
      const verdict = check.verdicts.get(runtime.name);
      if (verdict === undefined) return;
      namespaces.push({
        namespace: runtime.name,
        exclusive: runtime.policy.ownership.mode === "exclusive",
        allowed: verdict.ok,
        reason: verdict.reason,
        live: verdict.live,
        outBefore: verdict.drainedBefore,
        outAfter: verdict.drainedAfter,
        eligibleAfter: verdict.eligibleAfter,
        maxDrainedShare: runtime.policy.budgets.maxDrainedShare,
        executors,
      });
    });
    return {
      allowed: check.allowed,
      executorIds: candidates,
      mayStop: check.mayStop,
      mustWait: check.mustWait,
      unknown: candidates.filter((id) => !known.has(id)),
      namespaces,
    };
  }
}
