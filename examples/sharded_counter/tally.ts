/**
 * Counts what requests met: outcomes, retries, requests never served, and
 * the latency of those served.
 *
 * @module
 */
import type { RequestResult } from "./client.ts";

/** A tally's figures. */
export interface TallySummary {
  /** Requests finished. */
  readonly requests: number;
  /** Served warm at the first attempt. */
  readonly ok: number;
  /** Served by an owner still loading the shard, at the first attempt. */
  readonly cold: number;
  /** At least one attempt reached no serving owner (served by a retry, or not at all). */
  readonly failed: number;
  /** Attempts after the first, over all requests. */
  readonly retries: number;
  /** Failed requests that no retry served before the deadline. */
  readonly lost: number;
  /** Latency of the served requests, ms: median. */
  readonly p50Ms: number;
  /** 99th percentile. */
  readonly p99Ms: number;
  /** Slowest. */
  readonly maxMs: number;
}

/**
 * Accumulates {@linkcode RequestResult}s.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Tally } from "./tally.ts";
 *
 * const tally = new Tally();
 * tally.add({ outcome: "ok", served: true, attempts: 1, latencyMs: 2 });
 * tally.add({ outcome: "failed", served: true, attempts: 3, latencyMs: 80 });
 * const s = tally.summary();
 * assert.deepEqual([s.requests, s.ok, s.failed, s.retries, s.lost], [2, 1, 1, 2, 0]);
 * assert.equal(s.maxMs, 80);
 * ```
 */
export class Tally {
  #counts = { requests: 0, ok: 0, cold: 0, failed: 0, retries: 0, lost: 0 };
  #latencies: number[] = [];

  /** Counts one finished request. */
  add(result: RequestResult): void {
    const c = this.#counts;
    c.requests++;
    c[result.outcome]++;
    c.retries += result.attempts - 1;
    if (result.served) this.#latencies.push(result.latencyMs);
    else c.lost++;
  }

  /** The figures since the start or the last reset. */
  summary(): TallySummary {
    const sorted = this.#latencies.toSorted((a, b) => a - b);
    const at = (q: number) =>
      sorted.length === 0
        ? NaN
        : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
    return { ...this.#counts, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.at(-1) ?? NaN };
  }

  /** Starts counting afresh. */
  reset(): void {
    this.#counts = { requests: 0, ok: 0, cold: 0, failed: 0, retries: 0, lost: 0 };
    this.#latencies = [];
  }
}
