/**
 * The executor SDK's time: a monotonic {@linkcode Clock} (tests pass a fake).
 *
 * @module
 */
import { monotonicClock, sleepOn, type TimerClock } from "../common/clock.ts";

/** Monotonic time and one-shot timers. */
export type Clock = TimerClock;

/**
 * The real clock: `performance.now()` and the global timers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemClock } from "./clock.ts";
 *
 * assert.ok(systemClock.now() >= 0);
 * ```
 */
export const systemClock: Clock = monotonicClock;

export { sleepOn };
