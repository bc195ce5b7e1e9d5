/**
 * The last hour of each executor's owned-shard count and reported load, per
 * namespace, for the dashboard's sparklines. Samples go into fixed-size ring
 * buffers (typed arrays), so memory is bounded: at most `maxExecutors`
 * executors per namespace, `windowMs / intervalMs` samples each. An executor
 * not seen for a whole window is forgotten. A sample taken while the store
 * is unreachable is a gap: the instance's cache then only repeats its last
 * good read.
 *
 * @module
 */

/** Default time between samples: 15 s (240 samples an hour). */
export const DEFAULT_SAMPLE_INTERVAL_MS = 15_000;
/** Default span kept: one hour. */
export const DEFAULT_SAMPLE_WINDOW_MS = 60 * 60 * 1_000;
/** Default cap on the executors sampled per namespace. */
export const DEFAULT_MAX_SAMPLED_EXECUTORS = 500;

/** One executor as sampled. */
export interface ExecutorSample {
  /** Executor id. */
  readonly executorId: string;
  /** Shards it owns. */
  readonly shardCount: number;
  /** Load it reported (sum over its shards). */
  readonly load: number;
}

/** One executor's series, aligned with {@linkcode NamespaceTrends.times}; null: not sampled then. */
export interface ExecutorTrend {
  /** Executor id. */
  readonly executorId: string;
  /** Owned shards at each sample. */
  readonly shards: readonly (number | null)[];
  /** Reported load at each sample. */
  readonly loads: readonly (number | null)[];
}

/** What `GET /api/namespaces/:ns/trends` answers. */
export interface NamespaceTrends {
  /** Time between samples, ms. */
  readonly intervalMs: number;
  /** Span kept, ms. */
  readonly windowMs: number;
  /** Cap on executors sampled in a namespace. */
  readonly maxExecutors: number;
  /** Executors the namespace had at the last sample (more than `executors.length` when capped). */
  readonly executorsSeen: number;
  /** Sample times, oldest first (ms since epoch). */
  readonly times: readonly number[];
  /** Each sampled executor, by id. */
  readonly executors: readonly ExecutorTrend[];
}

/** Options of {@linkcode ExecutorSamples}. */
export interface ExecutorSamplesOptions {
  /** Time between samples, ms. @default {15000} */
  readonly intervalMs?: number;
  /** Span kept, ms. @default {3600000} */
  readonly windowMs?: number;
  /** Most executors sampled per namespace. @default {500} */
  readonly maxExecutors?: number;
}

interface Series {
  readonly shards: Float32Array;
  readonly loads: Float64Array;
  lastSeenMs: number;
}

interface Ring {
  readonly times: Float64Array;
  /** Slot of the next sample. */
  next: number;
  /** Samples held (up to capacity). */
  count: number;
  executorsSeen: number;
  readonly series: Map<string, Series>;
}

/**
 * Ring buffers of executor samples, one per namespace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExecutorSamples } from "./executor_samples.ts";
 *
 * const samples = new ExecutorSamples({ intervalMs: 1_000, windowMs: 3_000 });
 * samples.record("ns", 1_000, [{ executorId: "e1", shardCount: 4, load: 2.5 }]);
 * samples.record("ns", 2_000, undefined); // the store was unreachable: a gap
 * const trends = samples.trends("ns");
 * assert.deepEqual(trends.times, [1_000, 2_000]);
 * assert.deepEqual(trends.executors[0]?.shards, [4, null]);
 * ```
 */
export class ExecutorSamples {
  readonly #capacity: number;
  readonly #intervalMs: number;
  readonly #windowMs: number;
  readonly #maxExecutors: number;
  readonly #rings = new Map<string, Ring>();

  /** Empty buffers; throws a `RangeError` for a non-positive interval, window or cap. */
  constructor(options: ExecutorSamplesOptions = {}) {
    this.#intervalMs = positive("intervalMs", options.intervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS);
    this.#windowMs = positive("windowMs", options.windowMs ?? DEFAULT_SAMPLE_WINDOW_MS);
    this.#maxExecutors = positive(
      "maxExecutors",
      options.maxExecutors ?? DEFAULT_MAX_SAMPLED_EXECUTORS,
    );
    this.#capacity = Math.max(1, Math.ceil(this.#windowMs / this.#intervalMs));
  }

  /** Time between samples, ms. */
  get intervalMs(): number {
    return this.#intervalMs;
  }

  /**
   * Records one sample of `namespace` at `atMs`: `executors` (in the order
   * to sample them when there are more than the cap), or undefined for a gap.
   */
  record(namespace: string, atMs: number, executors: readonly ExecutorSample[] | undefined): void {
    let ring = this.#rings.get(namespace);
    if (!ring) {
      ring = {
        times: new Float64Array(this.#capacity),
        next: 0,
        count: 0,
        executorsSeen: 0,
        series: new Map(),
      };
      this.#rings.set(namespace, ring);
    }
    const slot = ring.next;
    ring.times[slot] = atMs;
    ring.next = (slot + 1) % this.#capacity;
    ring.count = Math.min(ring.count + 1, this.#capacity);
    for (const series of ring.series.values()) {
      series.shards[slot] = NaN;
      series.loads[slot] = NaN;
    }
    if (executors) {
      ring.executorsSeen = executors.length;
      for (const e of executors) {
        let series = ring.series.get(e.executorId);
        if (!series) {
          if (ring.series.size >= this.#maxExecutors) continue;
          series = {
            shards: new Float32Array(this.#capacity).fill(NaN),
            loads: new Float64Array(this.#capacity).fill(NaN),
            lastSeenMs: atMs,
          };
          ring.series.set(e.executorId, series);
        }
        series.shards[slot] = e.shardCount;
        series.loads[slot] = e.load;
        series.lastSeenMs = atMs;
      }
    }
    for (const [id, series] of ring.series) {
      if (atMs - series.lastSeenMs > this.#windowMs) ring.series.delete(id);
    }
  }

  /** Forgets the namespaces not in `keep` (deleted ones). */
  retain(keep: ReadonlySet<string>): void {
    for (const name of this.#rings.keys()) if (!keep.has(name)) this.#rings.delete(name);
  }

  /** The samples of `namespace` within the window before its last sample, oldest first. */
  trends(namespace: string): NamespaceTrends {
    const ring = this.#rings.get(namespace);
    const base = {
      intervalMs: this.#intervalMs,
      windowMs: this.#windowMs,
      maxExecutors: this.#maxExecutors,
    };
    if (!ring || ring.count === 0) return { ...base, executorsSeen: 0, times: [], executors: [] };
    const first = (ring.next - ring.count + this.#capacity) % this.#capacity;
    const slots = Array.from({ length: ring.count }, (_, i) => (first + i) % this.#capacity);
    const value = (n: number | undefined) => n === undefined || Number.isNaN(n) ? null : n;
    const executors = [...ring.series].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
      .map(([executorId, s]) => ({
        executorId,
        shards: slots.map((slot) => value(s.shards[slot])),
        loads: slots.map((slot) => value(s.loads[slot])),
      }));
    return {
      ...base,
      executorsSeen: ring.executorsSeen,
      times: slots.map((slot) => ring.times[slot]!),
      executors,
    };
  }
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  }
  return value;
}
