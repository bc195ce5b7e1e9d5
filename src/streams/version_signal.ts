/**
 * A counter that can be awaited: the basis of "latest value" streams, where a
 * slow reader skips intermediate versions instead of queueing them.
 *
 * @module
 */

/**
 * Counts changes and lets readers wait for the next one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { VersionSignal } from "./version_signal.ts";
 * const changes = new VersionSignal();
 * const next = changes.wait(0);
 * changes.bump();
 * assert.equal(await next, 1);
 * ```
 */
export class VersionSignal {
  #version = 0;
  #waiters: (() => void)[] = [];

  /** The number of changes so far. */
  get version(): number {
    return this.#version;
  }

  /** Records a change and wakes every waiter. */
  bump(): void {
    this.#version++;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves with the version once it is greater than `after`; rejects when `signal` aborts. */
  wait(after: number, signal?: AbortSignal): Promise<number> {
    if (this.#version > after) return Promise.resolve(this.#version);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#waiters = this.#waiters.filter((w) => w !== wake);
        reject(signal?.reason);
      };
      const wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve(this.#version);
      };
      this.#waiters.push(wake);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * A stream that yields the version each time it changed since the reader's
   * last read, skipping versions the reader was too slow to see.
   */
  changes(signal: AbortSignal, from: number = this.#version): ReadableStream<number> {
    let seen = from;
    return new ReadableStream<number>({
      pull: async (controller) => {
        try {
          seen = await this.wait(seen, signal);
          controller.enqueue(seen);
        } catch {
          controller.close();
        }
      },
    }, { highWaterMark: 0 });
  }
}
