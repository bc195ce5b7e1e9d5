/**
 * Spectator fan-out: every subscriber reads a "latest value" stream of the
 * namespace picture. The picture is built once per version and shared; a slow
 * subscriber skips versions instead of queueing them, so it never holds the
 * others back and always ends with the latest state.
 *
 * @module
 */
import type { NamespaceCache } from "../state/namespace_cache.ts";
import { compareShardKeys } from "./routing.ts";
import type { NamespaceView } from "./views.ts";

/** Shares namespace pictures among the watchers of one namespace. */
export class WatchFanout {
  #cache: NamespaceCache;
  #built: NamespaceView | undefined;

  /** Fans out `cache`'s changes. */
  constructor(cache: NamespaceCache) {
    this.#cache = cache;
  }

  /** The current picture (built at most once per version). */
  current(): NamespaceView {
    const version = this.#cache.views.version;
    if (this.#built?.version === version) return this.#built;
    const state = this.#cache.state;
    const executors = [...state.executors.keys()].sort().map((executorId) => ({
      executorId,
      metadata: state.executors.get(executorId)?.metadata ?? {},
      shards: [...state.shardsOf(executorId)].sort(compareShardKeys),
    }));
    return this.#built = { version, executors };
  }

  /**
   * A stream whose first chunk is the current picture and whose later chunks
   * follow every change the reader is ready for. Closes when `signal` aborts.
   */
  subscribe(signal: AbortSignal): ReadableStream<NamespaceView> {
    let seen = -1;
    return new ReadableStream<NamespaceView>({
      pull: async (controller) => {
        try {
          seen = await this.#cache.views.wait(seen, signal);
        } catch {
          return controller.close();
        }
        const view = this.current();
        seen = view.version;
        controller.enqueue(view);
      },
    }, { highWaterMark: 0 });
  }
}
