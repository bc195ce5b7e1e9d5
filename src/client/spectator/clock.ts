/**
 * The spectator SDK's time: a wall {@linkcode SpectatorClock}, since staleness
 * is reported as times since the epoch (tests pass a fake).
 *
 * @module
 */
import { sleepOn, type TimerClock, wallClock } from "../common/clock.ts";

/** Wall-clock time and one-shot timers. */
export type SpectatorClock = TimerClock;

/**
 * The real clock: `Date.now()` and the global timers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemClock } from "./clock.ts";
 *
 * assert.ok(Math.abs(systemClock.now() - Date.now()) < 1_000);
 * ```
 */
export const systemClock: SpectatorClock = wallClock;

/** Resolves after `ms` on `clock`, or as soon as `signal` aborts; never rejects. */
export const sleep: (clock: SpectatorClock, ms: number, signal?: AbortSignal) => Promise<void> =
  sleepOn;
