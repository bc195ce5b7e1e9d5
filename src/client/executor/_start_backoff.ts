/**
 * The per-shard backoff between starts of a shard whose start keeps failing:
 * `initialMs` after the first failure, doubling with each consecutive one up
 * to `maxMs`, each delay jittered to between half and all of it (so the
 * executors that fail with the same shard do not retry in step).
 *
 * @module
 */

/** Bounds of the backoff, in milliseconds. */
export interface StartBackoff {
  /** Delay after the first failure. */
  readonly initialMs: number;
  /** Longest delay. */
  readonly maxMs: number;
}

/**
 * The delay before the next start of a shard that failed `failures` times
 * in a row (`failures` ≥ 1); `random` gives numbers in [0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startRetryDelay } from "./_start_backoff.ts";
 *
 * const bounds = { initialMs: 1_000, maxMs: 60_000 };
 * assert.equal(startRetryDelay(1, bounds, () => 0), 500);
 * assert.equal(startRetryDelay(3, bounds, () => 0.5), 3_000); // 4 s full, jittered
 * assert.equal(startRetryDelay(40, bounds, () => 0), 30_000); // capped at maxMs
 * ```
 */
export function startRetryDelay(
  failures: number,
  bounds: StartBackoff,
  random: () => number,
): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  const full = Math.min(bounds.maxMs, bounds.initialMs * 2 ** exponent);
  return full / 2 + (full / 2) * random();
}
