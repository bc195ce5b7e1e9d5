/**
 * The mass-loss brake as the dashboard shows it (docs/operations.md, "Mass
 * loss"): whether it holds, since when and why, or how it was last released.
 *
 * @module
 */

/** The brake's record as the service reports it (`Brakes.status`, service/use_cases.ts). */
export interface BrakeInput {
  /** `engaged` while it holds; `lifted` by an operator; `released` when the executors returned. */
  readonly state: "engaged" | "lifted" | "released";
  /** When it engaged (ms since epoch). */
  readonly sinceMs: number;
  /** Why, in words. */
  readonly reason: string;
  /** Executors serving before the loss. */
  readonly executorsBefore: number;
  /** Executors lost (and not back when recorded). */
  readonly lost: readonly string[];
  /** When it was lifted or released (ms since epoch). */
  readonly endedAtMs?: number;
  /** Who lifted it. */
  readonly liftedBy?: string;
}

/** The brake in the page's JSON. */
export interface BrakeView {
  /** `engaged`, `lifted` or `released`. */
  readonly state: BrakeInput["state"];
  /** When it engaged (ms since epoch). */
  readonly sinceMs: number;
  /** Why, in words. */
  readonly reason: string;
  /** Executors serving before the loss. */
  readonly executorsBefore: number;
  /** How many were lost. */
  readonly lostCount: number;
  /** When it was lifted or released (ms since epoch). */
  readonly endedAtMs?: number;
  /** Who lifted it. */
  readonly liftedBy?: string;
}

/**
 * The page's view of a brake record (the lost executors counted, not listed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { brakeView } from "./brake_view.ts";
 *
 * const view = brakeView({
 *   state: "engaged", sinceMs: 5, reason: "6 of 10 lost", executorsBefore: 10,
 *   lost: ["e0", "e1", "e2", "e3", "e4", "e5"],
 * });
 * assert.deepEqual(view, {
 *   state: "engaged", sinceMs: 5, reason: "6 of 10 lost", executorsBefore: 10, lostCount: 6,
 * });
 * ```
 */
export function brakeView(record: BrakeInput): BrakeView {
  return {
    state: record.state,
    sinceMs: record.sinceMs,
    reason: record.reason,
    executorsBefore: record.executorsBefore,
    lostCount: record.lost.length,
    ...(record.endedAtMs === undefined ? {} : { endedAtMs: record.endedAtMs }),
    ...(record.liftedBy === undefined ? {} : { liftedBy: record.liftedBy }),
  };
}
