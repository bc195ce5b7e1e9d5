/**
 * Time as a port: the executor SDK reads time and sets timers only through a
 * {@linkcode Clock}, so tests can drive it with fake time.
 *
 * @module
 */

/** Monotonic time and one-shot timers. */
export interface Clock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Calls `callback` once after `ms`; returns a handle for {@linkcode Clock.clearTimeout}. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer set with {@linkcode Clock.setTimeout}; ignores unknown handles. */
  clearTimeout(handle: unknown): void;
}

/**
 * The real clock: `performance.now()` and the global timers.
 *
 * @example
 * ```ts
 * import { systemClock } from "./clock.ts";
 *
 * const handle = systemClock.setTimeout(() => {}, 1_000);
 * systemClock.clearTimeout(handle);
 * console.assert(systemClock.now() >= 0);
 * ```
 */
export const systemClock: Clock = Object.freeze({
  now: () => performance.now(),
  setTimeout: (callback: () => void, ms: number): unknown => setTimeout(callback, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as number | undefined),
});

/**
 * Resolves after `ms` on `clock`, or early (without rejecting) when `signal`
 * aborts.
 *
 * @example
 * ```ts
 * import { systemClock, sleepOn } from "./clock.ts";
 *
 * await sleepOn(systemClock, 1);
 * ```
 */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clock.clearTimeout(handle);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const handle = clock.setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}
