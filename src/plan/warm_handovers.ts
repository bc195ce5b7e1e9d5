/**
 * Warm handover within one pass: a planned move of shard s from A to B, where
 * B understands warm handover, first asks B to prepare s while A keeps
 * serving it; the pass that sees B report s PREPARED switches it. The rules:
 *
 * - B prepared: switch (a warm move).
 * - A lost (or the shard has no live owner): switch at once, B takes s.
 * - B lost, drained, or no longer understanding warm handover: cancel; s
 *   stays with A and may be planned elsewhere by a later pass.
 * - `prepareTimeoutMs` passed: a move A must make (A draining, drained by an
 *   operator, shutting down, or otherwise no longer eligible) completes cold;
 *   a balancing move is cancelled, and s stays with A.
 * - Otherwise wait (and wake when the timeout runs out).
 *
 * In an exclusive namespace the switch goes through the release steps of
 * handovers.ts (A releases and is confirmed stopped, then B is assigned). Pure.
 *
 * @module
 */
import type { Preparing } from "../core/assignment.ts";
import type { PlanInput } from "./plan_input.ts";
import type { WarmPlanning } from "./plan_policy.ts";

/**
 * What a pass does with a shard being prepared: keep waiting, cancel the
 * prepare (the incoming owner is gone: `cancel`; it did not prepare in time:
 * `timed-out`), or switch to the incoming owner, which prepared it (`warm`) or
 * did not (`cold`).
 */
export type PrepareStep = "wait" | "cancel" | "timed-out" | "warm" | "cold";

/** Handovers by outcome in one pass (see `sm_handovers_total`). */
export interface HandoverCounts {
  /** Moves that started by asking the incoming owner to prepare. */
  prepared: number;
  /** Switches to an incoming owner that had prepared the shard. */
  warm: number;
  /** Switches that did not wait for the prepare: the old owner was lost, or had to move it and time ran out. */
  cold: number;
  /** Prepares cancelled because the incoming owner was lost or is no longer eligible. */
  cancelled: number;
  /** Balancing prepares cancelled because the incoming owner did not prepare in time. */
  timedOut: number;
}

/** No handovers. */
export function noHandovers(): HandoverCounts {
  return { prepared: 0, warm: 0, cold: 0, cancelled: 0, timedOut: 0 };
}

/**
 * Whether a pass's handover counts are worth reporting.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hasHandovers, noHandovers } from "./warm_handovers.ts";
 *
 * assert.equal(hasHandovers(noHandovers()), false);
 * assert.equal(hasHandovers({ ...noHandovers(), warm: 1 }), true);
 * ```
 */
export function hasHandovers(counts: HandoverCounts): boolean {
  return Object.values(counts).some((n) => n > 0);
}

/** Decides the warm handover steps of one pass and counts them. */
export class WarmHandovers {
  readonly #input: PlanInput;
  readonly #warm: WarmPlanning;
  readonly #eligible: ReadonlyMap<string, number>;
  readonly #load = new Map<string, number>();
  /** What the pass decided, by outcome. */
  readonly counts: HandoverCounts = noHandovers();
  /** Time each handover the pass switches spent preparing (monotonic ms). */
  readonly prepareMs: number[] = [];
  /** Earliest monotonic time a prepare times out, if any is waiting. */
  wakeAtMs: number | undefined;

  /** Warm handovers of a pass over `input`; `eligible` maps each eligible executor to its index. */
  constructor(input: PlanInput, warm: WarmPlanning, eligible: ReadonlyMap<string, number>) {
    this.#input = input;
    this.#warm = warm;
    this.#eligible = eligible;
  }

  /** Prepares in flight: they use up the pass's move budget. */
  get inFlight(): number {
    return this.#input.preparing.size;
  }

  /** The step for `shard`, prepared by `entry.executor` while owned by `owner`. */
  step(shard: string, entry: Preparing, owner: string | undefined): PrepareStep {
    const input = this.#input;
    const b = input.executors.get(entry.executor);
    if (owner === undefined || owner === entry.executor || input.drained.has(shard)) {
      return "cancel";
    }
    if (!b || !this.#eligible.has(entry.executor) || !b.warmHandover) return "cancel";
    const prepared = b.reports.get(shard)?.status === "PREPARED";
    // Prepared, or an exclusive switch under way (A released): finish whatever the clock says.
    if (prepared || input.releasing.has(shard)) return prepared ? "warm" : "cold";
    if (!input.executors.get(owner)?.alive) return "cold"; // A lost: B takes it at once
    const since = input.preparingSince.get(shard) ?? input.now;
    const timeoutAt = since + this.#warm.prepareTimeoutMs;
    if (input.now >= timeoutAt) return this.#eligible.has(owner) ? "timed-out" : "cold";
    this.wakeAtMs = this.wakeAtMs === undefined ? timeoutAt : Math.min(this.wakeAtMs, timeoutAt);
    return "wait";
  }

  /** Counts a step the pass carried out on `shard`. */
  count(shard: string, step: "cancel" | "timed-out" | "warm" | "cold"): void {
    if (step === "timed-out") this.counts.timedOut++;
    else if (step === "cancel") this.counts.cancelled++;
    else {
      this.counts[step]++;
      const since = this.#input.preparingSince.get(shard);
      if (since !== undefined) this.prepareMs.push(Math.max(0, this.#input.now - since));
    }
  }

  /**
   * How the planned move of a shard from `owner` to `next` starts: `prepare`
   * (on `next`, reserving one of its prepare slots), `full` (it should be
   * prepared but `next` has no slot left: the shard stays put this pass) or
   * `cold` (at once: there is no live owner to wait for, or `next` does not
   * understand warm handover).
   */
  start(owner: string | undefined, next: string): "prepare" | "full" | "cold" {
    const input = this.#input;
    if (owner === undefined || !input.executors.get(owner)?.alive) return "cold";
    if (!input.executors.get(next)?.warmHandover) return "cold";
    const load = this.#load.get(next) ?? input.preparingBy.get(next)?.size ?? 0;
    if (load >= this.#warm.maxPreparesPerExecutor) return "full";
    this.#load.set(next, load + 1);
    this.counts.prepared++;
    return "prepare";
  }
}
