/**
 * Liveness refreshes written in the background: a heartbeat that changes
 * nothing but its executor's liveness does not wait for etcd. Its write joins
 * a buffer that is flushed every `flushMs` as a few transactions for all
 * executors at once (one record per executor: the latest), so etcd sees a
 * handful of write requests per second however many executors heartbeat. A
 * flush that fails is retried with the next one, since every buffered record
 * stands for a heartbeat that was answered.
 *
 * @module
 */
import { sleep } from "../core/clock.ts";
import type { Logger } from "../core/logger.ts";
import type { ExecutorWrite } from "../core/types.ts";
import type { Store } from "../store/store.ts";

/** Options of {@linkcode RefreshBuffer}. */
export interface RefreshBufferOptions {
  /** Time between flushes. */
  readonly flushMs: number;
  /** Where to log failed flushes. */
  readonly logger: Logger;
  /** Called after each flush with the number of records written. */
  readonly onFlush?: (written: number) => void;
}

/** Pending liveness refreshes, by namespace and executor. */
export class RefreshBuffer {
  #store: Store;
  #options: RefreshBufferOptions;
  #pending = new Map<string, Map<string, ExecutorWrite>>();
  #failure: unknown;
  #stop = new AbortController();
  #loop: Promise<void>;

  /** Starts flushing to `store`. */
  constructor(store: Store, options: RefreshBufferOptions) {
    this.#store = store;
    this.#options = options;
    this.#loop = this.#run();
  }

  /** The error of the last flush, if it failed (cleared by a flush that succeeds). */
  get failure(): unknown {
    return this.#failure;
  }

  /** Records waiting for the next flush. */
  get size(): number {
    let n = 0;
    for (const writes of this.#pending.values()) n += writes.size;
    return n;
  }

  /** Queues a refresh (a later one for the same executor replaces it). */
  add(namespace: string, write: ExecutorWrite): void {
    let writes = this.#pending.get(namespace);
    if (!writes) this.#pending.set(namespace, writes = new Map());
    writes.set(write.executorId, write);
  }

  #keep(namespace: string, write: ExecutorWrite): void {
    let writes = this.#pending.get(namespace);
    if (!writes) this.#pending.set(namespace, writes = new Map());
    if (!writes.has(write.executorId)) writes.set(write.executorId, write);
  }

  /** Drops a queued refresh: a full write of the executor supersedes it. */
  drop(namespace: string, executorId: string): void {
    this.#pending.get(namespace)?.delete(executorId);
  }

  /** Writes everything queued now. */
  async flush(): Promise<void> {
    const pending = this.#pending;
    this.#pending = new Map();
    let written = 0;
    await Promise.all([...pending].map(async ([namespace, writes]) => {
      if (writes.size === 0) return;
      try {
        await this.#store.writeExecutors(namespace, [...writes.values()]);
        written += writes.size;
        this.#failure = undefined;
      } catch (error) {
        this.#failure = error;
        // Those heartbeats were answered: retry them with the next flush unless a newer
        // renewal of the same executor replaced them meanwhile.
        for (const write of writes.values()) this.#keep(namespace, write);
        this.#options.logger.warn("liveness refresh failed; retried with the next flush", {
          namespace,
          executors: writes.size,
          error,
        });
      }
    }));
    this.#options.onFlush?.(written);
  }

  /** Stops the timer after a last flush. */
  async close(): Promise<void> {
    this.#stop.abort();
    await this.#loop;
    await this.flush();
  }

  async #run(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      await sleep(this.#options.flushMs, signal).catch(() => {});
      if (!signal.aborted) await this.flush();
    }
  }
}
