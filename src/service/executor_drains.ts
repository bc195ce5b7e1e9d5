/**
 * Operator drains of executors: make, remove and list them. A drain is stored
 * in the main store, so it holds across restarts of the service and of the
 * executors; a selector drain also catches executors that register later.
 * Each call waits until this instance's cache shows its own write.
 *
 * @module
 */
import type { Clock } from "../core/clock.ts";
import {
  drainIdOf,
  drainMatches,
  type DrainTarget,
  type ExecutorDrain,
} from "../core/executor_drain.ts";
import { InvalidArgumentError, PreconditionError } from "../core/errors.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import { budgetExecutors } from "../plan/budget_executors.ts";
import { checkDrainBudget } from "../plan/disruption_budget.ts";
import type { NamespaceView } from "../state/namespace_view.ts";
import type { Store } from "../store/store.ts";
import { plannedDrainMoves, type PlannedMove } from "./drain_preview.ts";
import type { HistoryLog } from "./history_log.ts";
import { applyOperatorWrite } from "./operator_writes.ts";

/** Longest reason kept with a drain. */
export const MAX_REASON_LENGTH = 1024;

/** A drain with the executors it matches now. */
export interface ExecutorDrainView {
  /** The stored drain. */
  readonly drain: ExecutorDrain;
  /** Known executors it matches, sorted. */
  readonly matched: readonly string[];
}

/** How a drain is made. */
export interface DrainOptions {
  /** The caller's request id: a drain with an id already applied is not applied again. */
  readonly requestId?: string | undefined;
  /** Make it even when it breaks the disruption budget. */
  readonly force?: boolean;
  /** Store nothing; report the shards that would move. */
  readonly dryRun?: boolean;
}

/** A drain made (or, for a dry run, one that would be made). */
export interface DrainResult extends ExecutorDrainView {
  /** True for a dry run: nothing was stored. */
  readonly dryRun: boolean;
  /** For a dry run: the shards that would move, and where. */
  readonly plannedMoves: readonly PlannedMove[];
}

/** What an undrain did. */
export interface UndrainResult {
  /** The drain removed, if there was one. */
  readonly removed?: ExecutorDrainView;
  /** Executors the removed drain matched that other drains still hold. */
  readonly stillDrained: readonly string[];
}

/** Makes, removes and lists executor drains. */
export class ExecutorDrains {
  #store: Store;
  #lookup: (namespace: string) => NamespaceRuntime;
  #clock: Clock;

  #history: HistoryLog | undefined;

  /** Acts on `store`, resolving namespaces with `lookup` (which throws for unknown ones). */
  constructor(
    store: Store,
    lookup: (namespace: string) => NamespaceRuntime,
    clock: Clock,
    history?: HistoryLog,
  ) {
    this.#store = store;
    this.#lookup = lookup;
    this.#clock = clock;
    this.#history = history;
  }

  /**
   * Drains the target; an identical existing drain is returned unchanged. A
   * drain that would leave a shard with no eligible owner, or drain more than
   * the namespace's `maxDrainedShare` of its live executors, is refused
   * (`PreconditionError`) unless forced; the check runs again if another
   * drain lands first, in the store's transaction.
   */
  async drain(
    namespace: string,
    target: DrainTarget,
    reason = "",
    options: DrainOptions = {},
  ): Promise<DrainResult> {
    const runtime = this.#lookup(namespace);
    const { cache } = runtime;
    if (reason.length > MAX_REASON_LENGTH) {
      throw new InvalidArgumentError("reason", `is over ${MAX_REASON_LENGTH} chars`);
    }
    const id = drainIdOf(target);
    const existing = cache.state.executorDrain(id);
    const drain: ExecutorDrain = existing ??
      { ...target, id, reason, createdAtMs: this.#clock.now() };
    const check = (state: NamespaceView) => {
      if (options.force || state.executorDrain(id)) return;
      this.#checkBudget(runtime, state, drain);
    };
    if (options.dryRun) {
      check(cache.state);
      const moves = plannedDrainMoves(runtime, drain, this.#clock.monotonic());
      return { ...view(cache.state, drain), dryRun: true, plannedMoves: moves };
    }
    if (!existing) {
      const outcome = await applyOperatorWrite(this.#store, this.#clock, runtime, {
        type: "put_executor_drain",
        drain,
      }, { requestId: options.requestId, check });
      if (outcome.applied) {
        const matched = view(cache.state, drain).matched;
        void this.#history?.record(namespace, {
          type: "executor_drained",
          drainId: id,
          ...(target.executorId === undefined ? {} : { executorId: target.executorId }),
          text:
            `drain ${id} made${reason ? ` (${reason})` : ""}${options.force ? ", forced" : ""}; ` +
            `matches ${matched.length === 0 ? "no executor" : matched.join(", ")}`,
        });
      }
    }
    const stored = cache.state.executorDrain(id) ?? drain;
    return { ...view(cache.state, stored), dryRun: false, plannedMoves: [] };
  }

  /** Removes the drain made with the same target, if any. */
  async undrain(
    namespace: string,
    target: DrainTarget,
    options: { readonly requestId?: string | undefined } = {},
  ): Promise<UndrainResult> {
    const runtime = this.#lookup(namespace);
    const { cache } = runtime;
    const id = drainIdOf(target);
    const existing = cache.state.executorDrain(id);
    if (!existing) return { stillDrained: [] };
    const removed = view(cache.state, existing);
    const outcome = await applyOperatorWrite(this.#store, this.#clock, runtime, {
      type: "delete_executor_drain",
      id,
    }, { requestId: options.requestId });
    if (!outcome.applied) return { stillDrained: [] };
    void this.#history?.record(namespace, {
      type: "executor_undrained",
      drainId: id,
      ...(target.executorId === undefined ? {} : { executorId: target.executorId }),
      text: `drain ${id} removed`,
    });
    const stillDrained = removed.matched.filter((executorId) => {
      const e = cache.state.executor(executorId);
      return e !== undefined && cache.state.isExecutorDrained(e);
    });
    return { removed, stillDrained };
  }

  #checkBudget(runtime: NamespaceRuntime, state: NamespaceView, drain: ExecutorDrain): void {
    const executors = budgetExecutors(
      state,
      this.#clock.monotonic(),
      (e) => drainMatches(drain, e.executorId, e.metadata),
    );
    const verdict = checkDrainBudget({
      executors,
      shards: state.ownedCount + state.requestCount,
      maxDrainedShare: runtime.policy.budgets.maxDrainedShare,
    });
    if (!verdict.ok) {
      throw new PreconditionError(
        state.namespace,
        `Drain ${drain.id} of namespace ${JSON.stringify(state.namespace)} is refused: ${
          verdict.reason.replace(/^Refused: /, "")
        }. Undrain another executor first, or force it (--force). ${drainsInPlaceText(state)}`,
      );
    }
  }

  /** The namespace's drains, sorted by id. */
  list(namespace: string): ExecutorDrainView[] {
    const state = this.#lookup(namespace).view;
    return [...state.executorDrains()]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((drain) => view(state, drain));
  }
}

/**
 * The drains already in place, for a refusal: each with its reason, when it
 * was made and what it matches, so the operator sees whose drain to lift.
 */
function drainsInPlaceText(state: NamespaceView): string {
  const drains = [...state.executorDrains()].sort((a, b) => (a.id < b.id ? -1 : 1));
  if (drains.length === 0) return "No executor drains are in place";
  return `Drains in place: ${
    drains.map((d) => {
      const matched = view(state, d).matched;
      return `${d.id} (since ${new Date(d.createdAtMs).toISOString()}${
        d.reason ? `, reason ${JSON.stringify(d.reason)}` : ""
      }, matches ${matched.length === 0 ? "no executor" : matched.join(", ")})`;
    }).join("; ")
  }`;
}

function view(state: NamespaceView, drain: ExecutorDrain): ExecutorDrainView {
  const matched: string[] = [];
  for (const e of state.executors()) {
    if (drainMatches(drain, e.executorId, e.metadata)) matched.push(e.executorId);
  }
  return { drain, matched: matched.sort() };
}
