/**
 * Latest-value fan-out of placements to `Spectator.changes()` readers.
 *
 * Nothing is queued: the feed holds only the current placement and the
 * change that produced it, and each reader remembers the last placement it
 * saw. A reader that keeps up gets every change as computed once on arrival;
 * a reader that falls behind skips versions and gets one change, diffed from
 * what it last saw to the current placement. Memory per reader is bounded by
 * one placement however slow it is.
 *
 * @module
 */
import { diffPlacements } from "./diff.ts";
import type { ChangeSet, Placement, PlacementChange } from "./types.ts";

/** Publishes placements to any number of latest-value readers. */
export class ChangeFeed {
  #current: Placement | undefined;
  #change: ChangeSet | undefined;
  #closed = false;
  #wakers = new Set<() => void>();

  /** Makes `placement` current; `change` is its difference from the previous current one. */
  publish(placement: Placement, change: ChangeSet): void {
    this.#current = placement;
    this.#change = change;
    this.#wake();
  }

  /** Ends every reader (after the item it is being handed, if any). */
  close(): void {
    this.#closed = true;
    this.#wake();
  }

  /**
   * Changes from the current placement on (the first item, once there is a
   * placement, lists every shard as added), until {@linkcode ChangeFeed.close}
   * or `signal` aborts.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ChangeFeed } from "./change_feed.ts";
   * import { applyUpdate } from "./placement.ts";
   * import { diffPlacements } from "./diff.ts";
   *
   * const feed = new ChangeFeed();
   * const placement = applyUpdate(undefined, { kind: "snapshot", executors: [] }, 0);
   * feed.publish(placement, diffPlacements(undefined, placement));
   * const reader = feed.subscribe();
   * assert.equal((await reader.next()).value?.version, 1);
   * feed.close();
   * assert.ok((await reader.next()).done);
   * ```
   */
  async *subscribe(signal?: AbortSignal): AsyncGenerator<PlacementChange, void, undefined> {
    let seen: Placement | undefined;
    while (true) {
      while (!this.#closed && !signal?.aborted && this.#current === seen) {
        await this.#waitForPublish(signal);
      }
      const current = this.#current;
      if (this.#closed || signal?.aborted || current === undefined) return;
      const change = seen !== undefined && seen.version === current.version - 1 && this.#change
        ? this.#change
        : diffPlacements(seen, current);
      const previousVersion = seen?.version ?? 0;
      seen = current;
      yield { ...change, version: current.version, previousVersion, placement: current };
    }
  }

  #waitForPublish(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#wakers.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      this.#wakers.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  #wake(): void {
    for (const wake of [...this.#wakers]) wake();
  }
}
