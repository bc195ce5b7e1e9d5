/**
 * Time as a port, so that timers and staleness can be tested with fake time:
 * code reads time, sets timers and waits only through a {@linkcode Clock}
 * ({@linkcode startTimer}, {@linkcode sleep}), and a test passes a fake one
 * (see `fake_clock.ts`). This file is the server's only user of the global
 * timers; `tests/clock_test.ts` keeps it so.
 *
 * @module
 */

/** A timer's handle, as returned by {@linkcode Clock.setTimeout}; opaque. */
export type TimerHandle = unknown;

/** A source of wall-clock and monotonic time, and of one-shot timers. */
export interface Clock {
  /** Milliseconds since the epoch (wall clock). */
  now(): number;
  /** Milliseconds on a monotonic clock, for measuring intervals. */
  monotonic(): number;
  /**
   * Calls `callback` once after `ms` of this clock's time. A clock without
   * timers (a fake that only fakes reading time) runs its timers on the global
   * `setTimeout`. @default {globalThis.setTimeout}
   */
  setTimeout?(callback: () => void, ms: number): TimerHandle;
  /** Cancels a timer of this clock; a handle that fired or was cleared is ignored. */
  clearTimeout?(handle: TimerHandle): void;
  /**
   * Lets the process exit while this timer waits (see
   * {@linkcode StartTimerOptions.unref}); a clock whose timers never hold the
   * process (a fake) has none.
   */
  unrefTimer?(handle: TimerHandle): void;
}

/** A clock that has its own timers. */
export type TimerClock = Clock & Required<Pick<Clock, "setTimeout" | "clearTimeout">>;

/**
 * The real clock: `Date.now()`, `performance.now()` and the global timers
 * (looked up on every call, so `FakeTimers.install` still takes effect).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemClock } from "./clock.ts";
 *
 * assert.ok(Math.abs(systemClock.now() - Date.now()) < 1_000);
 * const handle = systemClock.setTimeout(() => assert.fail("cleared"), 10);
 * systemClock.clearTimeout(handle);
 * ```
 */
export const systemClock: TimerClock = Object.freeze({
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (callback: () => void, ms: number): TimerHandle => setTimeout(callback, ms),
  clearTimeout: (handle: TimerHandle) => clearTimeout(handle as number | undefined),
  unrefTimer: (handle: TimerHandle) => Deno.unrefTimer(handle as number),
});

/** Options of {@linkcode startTimer}. */
export interface StartTimerOptions {
  /**
   * The timer does not keep the process alive (`Deno.unrefTimer`): for a
   * housekeeping wake-up that nothing waits on, such as a sweep of deadlines.
   * @default {false}
   */
  readonly unref?: boolean;
}

/**
 * Calls `callback` once after `ms` on `clock` (its own timers, or
 * {@linkcode systemClock}'s when it has none) and returns a function that
 * cancels the timer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startTimer, systemClock } from "./clock.ts";
 *
 * let fired = false;
 * const cancel = startTimer(systemClock, 1, () => fired = true);
 * cancel();
 * await new Promise((resolve) => setTimeout(resolve, 5));
 * assert.equal(fired, false);
 * ```
 */
export function startTimer(
  clock: Clock,
  ms: number,
  callback: () => void,
  options: StartTimerOptions = {},
): () => void {
  const delay = Math.max(0, ms);
  const timers = hasTimers(clock) ? clock : systemClock;
  const handle = timers.setTimeout(callback, delay);
  if (options.unref) timers.unrefTimer?.(handle);
  return () => timers.clearTimeout(handle);
}

function hasTimers(clock: Clock): clock is TimerClock {
  return clock.setTimeout !== undefined && clock.clearTimeout !== undefined;
}

/**
 * Resolves after `ms` of `clock`'s time, or rejects with the signal's reason
 * when it aborts first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sleep } from "./clock.ts";
 *
 * await sleep(1);
 * await assert.rejects(sleep(60_000, AbortSignal.abort(new Error("stop"))), /stop/);
 * ```
 *
 * @param ms How long to wait.
 * @param signal Stops the wait early.
 * @param clock Whose time to wait on. @default {systemClock}
 */
export function sleep(ms: number, signal?: AbortSignal, clock: Clock = systemClock): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = startTimer(clock, ms, () => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    });
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A signal that times out, from {@linkcode timeoutSignal}. */
export interface TimeoutSignal {
  /** Aborts with a `TimeoutError` `DOMException` once the time is up. */
  readonly signal: AbortSignal;
  /** Stops the timer (the signal then never aborts); call it once the wait is over. */
  clear(): void;
}

/**
 * `AbortSignal.timeout` on any clock: a signal that aborts after `ms` of
 * `clock`'s time. Unlike `AbortSignal.timeout`, its timer holds the process
 * until it fires or is cleared, so clear it when the wait ends.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { timeoutSignal } from "./clock.ts";
 * import { fakeClock } from "./fake_clock.ts";
 *
 * const time = fakeClock();
 * const late = timeoutSignal(5_000, time.clock);
 * await time.tick(5_000);
 * assert.equal(late.signal.reason.name, "TimeoutError");
 * const early = timeoutSignal(5_000, time.clock);
 * early.clear();
 * assert.equal(time.pending(), 0);
 * ```
 *
 * @param ms How long until the signal aborts.
 * @param clock Whose time. @default {systemClock}
 */
export function timeoutSignal(ms: number, clock: Clock = systemClock): TimeoutSignal {
  const controller = new AbortController();
  const clear = startTimer(clock, ms, () => {
    controller.abort(new DOMException(`Timed out after ${ms} ms`, "TimeoutError"));
  });
  return { signal: controller.signal, clear };
}
