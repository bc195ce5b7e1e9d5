/**
 * The calls each executor has through its proxies while the links are
 * degraded, against a baseline taken just before: whether retries pile up.
 * Sampled every 100 ms from the proxies' HTTP/2 counters
 * ({@linkcode TcpProxy.stats}), so it sees every gRPC call an executor
 * makes, whichever part of the SDK makes it.
 *
 * @module
 */
import type { ProxyStats } from "./tcp_proxy.ts";

/** One executor's calls, before and during a link fault. */
export interface ExecutorLinkLoad {
  readonly executor: string;
  /** Most calls in flight at once (all its proxies) in the second before the fault. */
  readonly baselineMaxInFlight: number;
  /** Most calls in flight at once during the fault. */
  readonly maxInFlight: number;
  /** Calls started per second, before and during. */
  readonly baselineCallsPerSecond: number;
  readonly callsPerSecond: number;
  /** Stalls and resets its links got during the fault. */
  readonly stalls: number;
  readonly resets: number;
}

/** Every executor's load during one fault. */
export interface LinkLoad {
  readonly durationMs: number;
  readonly executors: readonly ExecutorLinkLoad[];
}

/** Something with proxy counters (a {@linkcode TcpProxy}). */
export interface Counted {
  readonly stats: ProxyStats;
}

const SAMPLE_MS = 100;

/** A sampling in progress (see {@linkcode sampleLinks}). */
export interface LinkSampling {
  /** Waits `ms` while sampling the healthy links. */
  baseline(ms: number): Promise<void>;
  /** The fault starts now. */
  during(): void;
  /** Stops sampling; the figures per executor. */
  stop(): LinkLoad;
}

/**
 * Starts sampling `proxies` (per executor, its proxies): `baseline(ms)`
 * samples the healthy links, `during()` marks the fault's start, `stop()`
 * ends and sums up.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sampleLinks } from "./link_load.ts";
 *
 * const stats = { connections: 1, callsStarted: 4, callsInFlight: 2, stalls: 0, resets: 0 };
 * const sampling = sampleLinks([[{ stats }]]);
 * await sampling.baseline(150);
 * sampling.during();
 * const load = sampling.stop();
 * assert.equal(load.executors[0]!.baselineMaxInFlight, 2);
 * ```
 */
export function sampleLinks(
  proxies: readonly (readonly Counted[])[],
  names: readonly string[] = proxies.map((_, i) => `exec-${i}`),
): LinkSampling {
  const sum = (list: readonly Counted[], key: keyof ProxyStats) =>
    list.reduce((n, p) => n + p.stats[key], 0);
  const started = performance.now();
  let duringAt = Number.NaN;
  const at = (key: keyof ProxyStats) => proxies.map((list) => sum(list, key));
  const start0 = at("callsStarted");
  let startDuring = start0;
  let stallsDuring = at("stalls");
  let resetsDuring = at("resets");
  const baselineMax = proxies.map(() => 0);
  const duringMax = proxies.map(() => 0);
  const sample = () => {
    const inFlight = at("callsInFlight");
    const max = Number.isNaN(duringAt) ? baselineMax : duringMax;
    inFlight.forEach((n, i) => max[i] = Math.max(max[i]!, n));
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    baseline(ms: number): Promise<void> {
      return new Promise((resolve) => setTimeout(resolve, ms));
    },
    during(): void {
      duringAt = performance.now();
      startDuring = at("callsStarted");
      stallsDuring = at("stalls");
      resetsDuring = at("resets");
      sample();
    },
    stop(): LinkLoad {
      sample();
      clearInterval(timer);
      const end = performance.now();
      if (Number.isNaN(duringAt)) duringAt = end;
      const baselineS = Math.max(duringAt - started, 1) / 1_000;
      const duringS = Math.max(end - duringAt, 1) / 1_000;
      const startedNow = at("callsStarted");
      const stallsNow = at("stalls");
      const resetsNow = at("resets");
      const round = (n: number) => Math.round(n * 10) / 10;
      return {
        durationMs: Math.round(end - duringAt),
        executors: names.map((executor, i) => ({
          executor,
          baselineMaxInFlight: baselineMax[i]!,
          maxInFlight: duringMax[i]!,
          baselineCallsPerSecond: round((startDuring[i]! - start0[i]!) / baselineS),
          callsPerSecond: round((startedNow[i]! - startDuring[i]!) / duringS),
          stalls: stallsNow[i]! - stallsDuring[i]!,
          resets: resetsNow[i]! - resetsDuring[i]!,
        })),
      };
    },
  };
}
