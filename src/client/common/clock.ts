/**
 * Time as a port for the SDKs: they read time and set timers only through a
 * {@linkcode TimerClock}, so tests can drive them with fake time.
 *
 * @module
 */

/** A time source with one-shot timers. */
export interface TimerClock {
  /** Milliseconds: monotonic or since the epoch, depending on the clock. */
  now(): number;
  /** Calls `callback` once after `ms`; returns a handle for {@linkcode TimerClock.clearTimeout}. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer; a handle that already fired or was cleared is ignored. */
  clearTimeout(handle: unknown): void;
}

const timers = {
  setTimeout: (callback: () => void, ms: number): unknown => setTimeout(callback, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as number | undefined),
};

/**
 * `performance.now()` and the global timers: for measuring intervals.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { monotonicClock } from "./clock.ts";
 *
 * const handle = monotonicClock.setTimeout(() => {}, 1_000);
 * monotonicClock.clearTimeout(handle);
 * assert.ok(monotonicClock.now() >= 0);
 * ```
 */
export const monotonicClock: TimerClock = Object.freeze({
  now: () => performance.now(),
  ...timers,
});

/**
 * `Date.now()` and the global timers: for times shown to people.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wallClock } from "./clock.ts";
 *
 * assert.ok(Math.abs(wallClock.now() - Date.now()) < 1_000);
 * ```
 */
export const wallClock: TimerClock = Object.freeze({ now: () => Date.now(), ...timers });

/**
 * Resolves after `ms` on `clock`, or as soon as `signal` aborts (it never
 * rejects, so a loop just checks `signal.aborted` afterwards).
 *
 * @example
 * ```ts
 * import { monotonicClock, sleepOn } from "./clock.ts";
 *
 * await sleepOn(monotonicClock, 1);
 * ```
 */
export function sleepOn(clock: TimerClock, ms: number, signal?: AbortSignal): Promise<void> {
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
