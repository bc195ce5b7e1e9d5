/**
 * Time as a port, so reconnect delays, timeouts and staleness can be tested on
 * fake time.
 *
 * @module
 */

/** Wall-clock time and one-shot timers. */
export interface SpectatorClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once after `ms`; returns a handle for {@linkcode SpectatorClock.clearTimeout}. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer; a handle that already fired or was cleared is ignored. */
  clearTimeout(handle: unknown): void;
}

/**
 * The real clock: `Date.now()` and the global timers.
 *
 * @example
 * ```ts
 * import { systemClock } from "./clock.ts";
 *
 * console.assert(Math.abs(systemClock.now() - Date.now()) < 1_000);
 * ```
 */
export const systemClock: SpectatorClock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as number),
});

/**
 * Resolves after `ms` on `clock`, or as soon as `signal` aborts (it never
 * rejects, so a loop just checks `signal.aborted` afterwards).
 *
 * @example
 * ```ts
 * import { sleep, systemClock } from "./clock.ts";
 *
 * await sleep(systemClock, 1);
 * ```
 */
export function sleep(clock: SpectatorClock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clock.clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = clock.setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}
