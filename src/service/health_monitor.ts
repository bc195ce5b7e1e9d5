/**
 * Whether an instance can do its job: the main store answers, and every
 * namespace's cache follows it. Probed on a timer, so health endpoints answer
 * from memory and a hung store cannot hang them.
 *
 * @module
 */
import { type Clock, sleep, systemClock } from "../core/clock.ts";
import type { Store } from "../store/store.ts";

/** What the monitor last found. */
export interface HealthStatus {
  /** The last ping of the main store succeeded. */
  readonly storeReachable: boolean;
  /** Every namespace cache follows the store. */
  readonly synced: boolean;
  /** Reachable and synced: the instance serves correct answers. */
  readonly ready: boolean;
  /** Wall-clock time of the last probe (ms since epoch), 0 before the first. */
  readonly checkedAtMs: number;
  /** Why the last ping failed, if it did. */
  readonly error?: string;
  /** Wall-clock time of the last probe that reached the store (ms since epoch), if any. */
  readonly lastGoodReadMs?: number;
  /** The same instant on the monotonic clock. */
  readonly lastGoodReadMonotonic?: number;
}

/** Options of {@linkcode HealthMonitor}. */
export interface HealthMonitorOptions {
  /** Time between probes. @default {2000} */
  readonly intervalMs?: number;
  /** A ping slower than this counts as a failure. @default {2000} */
  readonly timeoutMs?: number;
  /** Time source. @default {systemClock} */
  readonly clock?: Clock;
  /** Told each probe's round trip (ms, wall time) and whether the store answered. */
  readonly onProbe?: (durationMs: number, ok: boolean) => void;
}

/** Probes the store and the caches; tells listeners when readiness changes. */
export class HealthMonitor {
  #store: Store;
  #synced: () => boolean;
  #options: HealthMonitorOptions;
  #status: HealthStatus = { storeReachable: false, synced: false, ready: false, checkedAtMs: 0 };
  #listeners = new Set<(status: HealthStatus) => void>();

  /** Watches `store`; `synced` says whether every namespace cache follows it. */
  constructor(store: Store, synced: () => boolean, options: HealthMonitorOptions = {}) {
    this.#store = store;
    this.#synced = synced;
    this.#options = options;
  }

  /** The longest a store outage can last before a probe notices it: one interval and one timeout. */
  get detectionMs(): number {
    return (this.#options.intervalMs ?? 2_000) + (this.#options.timeoutMs ?? 2_000);
  }

  /** The latest finding. */
  get status(): HealthStatus {
    return this.#status;
  }

  /** Calls `listener` whenever readiness changes; returns an unsubscribe function. */
  onChange(listener: (status: HealthStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Probes once now. */
  async probe(): Promise<HealthStatus> {
    const clock = this.#options.clock ?? systemClock;
    const timeout = new AbortController();
    let error: string | undefined;
    const startedAt = performance.now();
    try {
      await Promise.race([
        this.#store.ping(),
        sleep(this.#options.timeoutMs ?? 2_000, timeout.signal).then(() => {
          throw new Error("the store did not answer in time");
        }),
      ]);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    } finally {
      timeout.abort();
    }
    this.#options.onProbe?.(performance.now() - startedAt, error === undefined);
    const synced = this.#synced();
    const storeReachable = error === undefined;
    const previous = this.#status;
    const good = storeReachable
      ? { lastGoodReadMs: clock.now(), lastGoodReadMonotonic: clock.monotonic() }
      : previous.lastGoodReadMs === undefined || previous.lastGoodReadMonotonic === undefined
      ? {}
      : {
        lastGoodReadMs: previous.lastGoodReadMs,
        lastGoodReadMonotonic: previous.lastGoodReadMonotonic,
      };
    this.#status = {
      storeReachable,
      synced,
      ready: storeReachable && synced,
      checkedAtMs: clock.now(),
      ...(error === undefined ? {} : { error }),
      ...good,
    };
    if (previous.ready !== this.#status.ready || previous.checkedAtMs === 0) {
      for (const listener of this.#listeners) listener(this.#status);
    }
    return this.#status;
  }

  /** Probes every `intervalMs` until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.probe();
      await sleep(this.#options.intervalMs ?? 2_000, signal).catch(() => {});
    }
  }
}
