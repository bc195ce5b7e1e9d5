/**
 * How far apart a leader's passes start. A pass plans on the instance's one
 * thread, and heartbeats wait while it does: at 1,000,000 shards a planned
 * pass takes about half a second, and while executors report their new shards
 * after a placement, every few reports would start another. So the least time
 * between two passes is the namespace's cooldown or, when longer, a multiple
 * of the last pass's planning time, which keeps planning to at most
 * {@linkcode PLANNING_SHARE} of the thread's time. At ordinary sizes (passes of
 * milliseconds) the cooldown decides; a pass after quiet time starts at once.
 *
 * @module
 */

/** Most of the thread's time that back-to-back passes may take. */
export const PLANNING_SHARE = 0.25;

/** The cooldown between passes, adapted to how long passes take. */
export class PassSpacing {
  readonly #cooldownMs: number;
  #lastPlanMs = 0;

  /** `cooldownMs`: the namespace's least time between passes. */
  constructor(cooldownMs: number) {
    this.#cooldownMs = cooldownMs;
  }

  /**
   * Notes that a pass spent `planMs` planning (not the commit: waiting
   * for the store keeps the thread free, and a slow store must not space
   * passes out).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { PassSpacing } from "./pass_spacing.ts";
   *
   * const spacing = new PassSpacing(1_000);
   * spacing.planned(20);
   * assert.equal(spacing.cooldownMs(), 1_000); // short passes: the cooldown
   * spacing.planned(600);
   * assert.equal(spacing.cooldownMs(), 2_400); // a 600 ms pass: 4 × 600 ms apart
   * ```
   */
  planned(planMs: number): void {
    this.#lastPlanMs = planMs >= 0 ? planMs : 0;
  }

  /** Least time from the start of one pass to the start of the next, ms. */
  cooldownMs(): number {
    return Math.max(this.#cooldownMs, this.#lastPlanMs / PLANNING_SHARE);
  }
}
