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
import { InvalidArgumentError } from "../core/errors.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import type { NamespaceView } from "../state/namespace_view.ts";
import type { Store } from "../store/store.ts";

/** Longest reason kept with a drain. */
export const MAX_REASON_LENGTH = 1024;

/** A drain with the executors it matches now. */
export interface ExecutorDrainView {
  /** The stored drain. */
  readonly drain: ExecutorDrain;
  /** Known executors it matches, sorted. */
  readonly matched: readonly string[];
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

  /** Acts on `store`, resolving namespaces with `lookup` (which throws for unknown ones). */
  constructor(store: Store, lookup: (namespace: string) => NamespaceRuntime, clock: Clock) {
    this.#store = store;
    this.#lookup = lookup;
    this.#clock = clock;
  }

  /** Drains the target; an identical existing drain is returned unchanged. */
  async drain(namespace: string, target: DrainTarget, reason = ""): Promise<ExecutorDrainView> {
    const { cache } = this.#lookup(namespace);
    if (reason.length > MAX_REASON_LENGTH) {
      throw new InvalidArgumentError("reason", `is over ${MAX_REASON_LENGTH} chars`);
    }
    const id = drainIdOf(target);
    const existing = cache.state.executorDrain(id);
    if (existing) return view(cache.state, existing);
    const drain: ExecutorDrain = { ...target, id, reason, createdAtMs: this.#clock.now() };
    await cache.waitForRevision(await this.#store.putExecutorDrain(namespace, drain));
    return view(cache.state, cache.state.executorDrain(id) ?? drain);
  }

  /** Removes the drain made with the same target, if any. */
  async undrain(namespace: string, target: DrainTarget): Promise<UndrainResult> {
    const { cache } = this.#lookup(namespace);
    const id = drainIdOf(target);
    const existing = cache.state.executorDrain(id);
    if (!existing) return { stillDrained: [] };
    const removed = view(cache.state, existing);
    await cache.waitForRevision(await this.#store.deleteExecutorDrain(namespace, id));
    const stillDrained = removed.matched.filter((executorId) => {
      const e = cache.state.executor(executorId);
      return e !== undefined && cache.state.isExecutorDrained(e);
    });
    return { removed, stillDrained };
  }

  /** The namespace's drains, sorted by id. */
  list(namespace: string): ExecutorDrainView[] {
    const state = this.#lookup(namespace).view;
    return [...state.executorDrains()]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((drain) => view(state, drain));
  }
}

function view(state: NamespaceView, drain: ExecutorDrain): ExecutorDrainView {
  const matched: string[] = [];
  for (const e of state.executors()) {
    if (drainMatches(drain, e.executorId, e.metadata)) matched.push(e.executorId);
  }
  return { drain, matched: matched.sort() };
}
