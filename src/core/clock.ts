/**
 * Time as a port, so that timers and staleness can be tested with fake time.
 *
 * @module
 */

/** A source of wall-clock and monotonic time. */
export interface Clock {
  /** Milliseconds since the epoch (wall clock). */
  now(): number;
  /** Milliseconds on a monotonic clock, for measuring intervals. */
  monotonic(): number;
}

/** The real clock: `Date.now()` and `performance.now()`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
};

/**
 * Resolves after `ms`, or rejects with the signal's reason when it aborts first.
 *
 * @example
 * ```ts
 * import { sleep } from "./clock.ts";
 * await sleep(1);
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
