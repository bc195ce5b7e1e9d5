/**
 * When this instance last heard its store answer, so liveness is judged on
 * evidence. While the store stalls (a slow disk, an election, a pause) no
 * heartbeat can be recorded, and an executor's silence then says nothing about
 * the executor: a leader that judged it by its own clock would move the shards
 * of executors that never stopped heartbeating (issue 37). So a pass judges
 * liveness at the last moment the store was heard ({@linkcode StoreEvidence.vouchedAt}),
 * plans nothing while the store is silent, and when the store is heard again
 * after a silence the executors alive when it began get one heartbeat TTL to
 * be heard ({@linkcode StoreEvidence.onResume}).
 *
 * Evidence comes from a pulse (`store_pulse.ts`): a cheap read every
 * `silenceMs / 3` or so; an answer counts when it arrives.
 *
 * @module
 */
import { type Clock, systemClock } from "./clock.ts";

/** Options of {@linkcode StoreEvidence}. */
export interface StoreEvidenceOptions {
  /** How long without an answer the store counts as silent (ms). */
  readonly silenceMs: number;
  /** Time source. @default {systemClock} */
  readonly clock?: Clock;
}

/** A moment on both clocks. */
export interface Moment {
  /** Monotonic ms. */
  readonly now: number;
  /** Wall-clock ms since the epoch. */
  readonly wallMs: number;
}

/** Called when the store answers after a silence: its last answer before, and now (monotonic ms). */
export type ResumeListener = (silentSinceMs: number, nowMs: number) => void;

/**
 * The store's last answer, and whether it has been silent too long.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StoreEvidence } from "./store_evidence.ts";
 *
 * let t = 1_000;
 * const clock = { now: () => t, monotonic: () => t };
 * const evidence = new StoreEvidence({ silenceMs: 500, clock });
 * const resumed: number[][] = [];
 * evidence.onResume((since, now) => resumed.push([since, now]));
 * evidence.heard();
 * t += 300;
 * assert.equal(evidence.silentAt(t), false);
 * assert.equal(evidence.vouchedAt(t), 1_000);
 * t += 6_000;
 * assert.equal(evidence.silentAt(t), true);
 * evidence.heard();
 * assert.deepEqual(resumed, [[1_000, 7_300]]);
 * ```
 */
export class StoreEvidence {
  readonly #silenceMs: number;
  readonly #clock: Clock;
  #last: Moment | undefined;
  readonly #listeners = new Set<ResumeListener>();

  /** Evidence with nothing heard yet (silent until the first answer). */
  constructor(options: StoreEvidenceOptions) {
    if (!(options.silenceMs > 0)) {
      throw new RangeError(`silenceMs must be a positive number of ms, got ${options.silenceMs}`);
    }
    this.#silenceMs = options.silenceMs;
    this.#clock = options.clock ?? systemClock;
  }

  /** How long without an answer the store counts as silent. */
  get silenceMs(): number {
    return this.#silenceMs;
  }

  /** The store answered just now; after a silence, tells the resume listeners. */
  heard(): void {
    const now = this.#clock.monotonic();
    const previous = this.#last;
    this.#last = { now, wallMs: this.#clock.now() };
    if (previous !== undefined && now - previous.now > this.#silenceMs) {
      for (const listener of this.#listeners) listener(previous.now, now);
    }
  }

  /** The store's last answer; undefined before the first. */
  get last(): Moment | undefined {
    return this.#last;
  }

  /** True when nothing was heard for longer than `silenceMs` before monotonic `now` (or ever). */
  silentAt(now: number): boolean {
    return this.#last === undefined || now - this.#last.now > this.#silenceMs;
  }

  /**
   * The latest monotonic time up to `now` at which the store vouches for what
   * this instance knows: its last answer (`-Infinity` before any). Liveness
   * judged at this time never counts a stall of the store against an executor.
   */
  vouchedAt(now: number): number {
    return Math.min(now, this.#last?.now ?? -Infinity);
  }

  /** Calls `listener` each time the store answers after a silence; returns the unsubscribe function. */
  onResume(listener: ResumeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
