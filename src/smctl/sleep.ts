/**
 * An abortable sleep on the client side's clock.
 *
 * @module
 */
import { monotonicClock, sleepOn, type TimerClock } from "../client/common/clock.ts";

/**
 * Resolves after `ms` of `clock`'s time, or as soon as `signal` aborts (it
 * never rejects).
 *
 * @example
 * ```ts
 * import { sleep } from "./sleep.ts";
 *
 * await sleep(1, new AbortController().signal);
 * ```
 *
 * @param clock Whose time. @default {monotonicClock}
 */
export function sleep(
  ms: number,
  signal: AbortSignal,
  clock: TimerClock = monotonicClock,
): Promise<void> {
  return sleepOn(clock, ms, signal);
}
