/**
 * Whether an instance can do its job: the main store answers, and every
 * namespace's cache follows it. Probed on a timer, so health endpoints answer
 * from memory and a hung store cannot hang them.
 *
 * @module
 */
import { type Clock, sleep, systemClock } from "../core/clock.ts";
import type { StoreEvidence } from "../core/store_evidence.ts";
import type { Store } from "../store/store.ts";

/** How often a monitor with a pulse looks at it between probes, ms. */
const PULSE_CHECK_MS = 250;

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
  /**
   * The store's pulse: once it has heard the store, a silence of the pulse
   * makes the store unreachable at once (before the next probe notices), and
   * its last answer is the last good read when it is the later one. Each
   * probe the store answers is told to it as well.
   * @default {probes alone}
   */
  readonly evidence?: StoreEvidence;
}

/** Probes the store and the caches; tells listeners when readiness changes. */
export class HealthMonitor {
  #store: Store;
  #synced: () => boolean;
  #options: HealthMonitorOptions;
  #status: HealthStatus = { storeReachable: false, synced: false, ready: false, checkedAtMs: 0 };
  #listeners = new Set<(status: HealthStatus) => void>();
  /** The readiness the listeners were last told; undefined before the first probe. */
  #told: boolean | undefined;

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

  /**
   * The latest finding, with the pulse's (see {@linkcode HealthMonitorOptions.evidence}).
   * Whoever reads a change of readiness first tells the listeners of it, so
   * every reader (HTTP, gRPC, metrics) agrees.
   */
  get status(): HealthStatus {
    const status = this.#current();
    this.#tell(status);
    return status;
  }

  #current(): HealthStatus {
    const status = this.#status;
    const evidence = this.#options.evidence;
    const heard = evidence?.last;
    if (evidence === undefined || heard === undefined || status.checkedAtMs === 0) return status;
    const now = (this.#options.clock ?? systemClock).monotonic();
    const later = status.lastGoodReadMonotonic === undefined ||
      heard.now > status.lastGoodReadMonotonic;
    const good = later ? { lastGoodReadMs: heard.wallMs, lastGoodReadMonotonic: heard.now } : {};
    if (!status.storeReachable || !evidence.silentAt(now)) {
      return { ...status, ...good };
    }
    return {
      ...status,
      storeReachable: false,
      ready: false,
      error: `the store has not answered for ${((now - heard.now) / 1_000).toFixed(1)} s`,
      ...good,
    };
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
        sleep(this.#options.timeoutMs ?? 2_000, timeout.signal, clock).then(() => {
          throw new Error("the store did not answer in time");
        }),
      ]);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    } finally {
      timeout.abort();
    }
    if (error === undefined) this.#options.evidence?.heard(); // a probe's answer counts too
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
    return this.status;
  }

  /** Tells the listeners when readiness changed since they were last told (or never were). */
  #tell(status: HealthStatus): void {
    if (this.#status.checkedAtMs === 0 || this.#told === status.ready) return;
    this.#told = status.ready;
    for (const listener of this.#listeners) listener(status);
  }

  /**
   * Probes every `intervalMs` until `signal` aborts; with a pulse, also tells
   * the listeners within a quarter of a second when its silence (or its end)
   * changes readiness.
   */
  async run(signal: AbortSignal): Promise<void> {
    const clock = this.#options.clock ?? systemClock;
    const intervalMs = this.#options.intervalMs ?? 2_000;
    const stepMs = this.#options.evidence ? Math.min(PULSE_CHECK_MS, intervalMs) : intervalMs;
    while (!signal.aborted) {
      await this.probe();
      const next = clock.monotonic() + intervalMs;
      while (!signal.aborted && clock.monotonic() < next) {
        await sleep(Math.min(stepMs, next - clock.monotonic()), signal, clock).catch(() => {});
        void this.status; // tells the listeners of a change the pulse made
      }
    }
  }
}
