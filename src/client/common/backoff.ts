/**
 * Retry delays for clients: exponential backoff with full jitter, so that many
 * clients that lost the service at the same moment do not return in lockstep.
 *
 * @module
 */

/** Bounds of a backoff. */
export interface BackoffOptions {
  /** Delay ceiling of the first retry, in ms. @default {100} */
  readonly baseMs?: number;
  /** Largest delay, in ms. @default {5000} */
  readonly maxMs?: number;
}

/**
 * The delay before retry number `attempt` (0 for the first retry): a uniform
 * random value in `[0, min(maxMs, baseMs * 2^attempt)]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { backoffDelay } from "./backoff.ts";
 *
 * const ms = backoffDelay(3, { baseMs: 100, maxMs: 5_000 }, () => 0.5);
 * assert.equal(ms, 400);
 * ```
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const base = options.baseMs ?? 100;
  const max = options.maxMs ?? 5_000;
  const ceiling = Math.min(max, base * 2 ** Math.min(Math.max(0, attempt), 30));
  return Math.floor(random() * ceiling);
}

/**
 * `ms` spread by up to `fraction` either way, for periodic work such as
 * heartbeats.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jittered } from "./backoff.ts";
 *
 * const ms = jittered(1_000, 0.1, () => 1);
 * assert.equal(ms, 1_100);
 * ```
 */
export function jittered(ms: number, fraction: number, random: () => number = Math.random): number {
  return Math.max(0, Math.round(ms * (1 + fraction * (2 * random() - 1))));
}
