/**
 * The test kit's clock: real time that a test can move forward. Timers fire
 * on their own as real time passes, and at once when {@linkcode WarpClock.advance}
 * jumps past them, in order of their due time; `now()` and `monotonic()` then
 * read ahead of the wall clock by the time advanced so far.
 *
 * @module
 */
import type { TimerClock, TimerHandle } from "../../src/core/clock.ts";

interface Timer {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
  real: ReturnType<typeof setTimeout> | undefined;
  unref: boolean;
}

/**
 * A {@linkcode TimerClock} on real time, plus an offset that only grows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WarpClock } from "./warp_clock.ts";
 *
 * const clock = new WarpClock();
 * const before = clock.now();
 * let fired = false;
 * clock.setTimeout(() => fired = true, 5_000);
 * await clock.advance(5_000);
 * assert.equal(fired, true);
 * assert.ok(clock.now() - before >= 5_000);
 * ```
 */
export class WarpClock implements TimerClock {
  #offsetMs = 0;
  #nextId = 1;
  #timers = new Map<number, Timer>();

  /** Time advanced so far, in ms. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** The wall clock plus the offset. */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** `performance.now()` plus the offset. */
  monotonic(): number {
    return performance.now() + this.#offsetMs;
  }

  /** Calls `callback` after `ms` of this clock's time (real time or an advance, whichever first). */
  setTimeout(callback: () => void, ms: number): TimerHandle {
    const delay = Math.max(0, ms);
    const timer: Timer = {
      id: this.#nextId++,
      due: this.monotonic() + delay,
      callback,
      real: undefined,
      unref: false,
    };
    timer.real = setTimeout(() => this.#fire(timer), delay);
    this.#timers.set(timer.id, timer);
    return timer.id;
  }

  /** Cancels a timer; a handle that fired or was cleared is ignored. */
  clearTimeout(handle: TimerHandle): void {
    const timer = this.#timers.get(handle as number);
    if (timer === undefined) return;
    this.#timers.delete(timer.id);
    clearTimeout(timer.real);
  }

  /** Lets the process exit while this timer waits. */
  unrefTimer(handle: TimerHandle): void {
    const timer = this.#timers.get(handle as number);
    if (timer === undefined) return;
    timer.unref = true;
    if (timer.real !== undefined) Deno.unrefTimer(timer.real);
  }

  /**
   * Moves time on by `ms` in steps of at most `stepMs`, firing the timers
   * that fall due in each step, earliest first, and giving promises, I/O
   * and real timers a turn after each step (so time runs at most about
   * `stepMs` times faster than real time while it advances).
   */
  async advance(ms: number, stepMs = 100): Promise<void> {
    if (!(Number.isFinite(ms) && ms >= 0)) {
      throw new RangeError(`Cannot advance time: ms must be a finite number >= 0, got ${ms}`);
    }
    let left = ms;
    do {
      const step = Math.min(left, stepMs);
      left -= step;
      this.#offsetMs += step;
      await this.#fireDue();
      await new Promise<void>((resolve) => setTimeout(resolve, 1));
    } while (left > 0);
    // Timers not yet due now fire after what is left of their wait, not their whole real delay.
    for (const timer of this.#timers.values()) {
      clearTimeout(timer.real);
      timer.real = setTimeout(() => this.#fire(timer), Math.max(0, timer.due - this.monotonic()));
      if (timer.unref) Deno.unrefTimer(timer.real);
    }
  }

  async #fireDue(): Promise<void> {
    for (;;) {
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      const until = this.monotonic();
      let next: Timer | undefined;
      for (const timer of this.#timers.values()) {
        if (timer.due <= until && (next === undefined || timer.due < next.due)) next = timer;
      }
      if (next === undefined) return;
      this.#fire(next);
    }
  }

  /** Timers waiting to fire. */
  pending(): number {
    return this.#timers.size;
  }

  #fire(timer: Timer): void {
    if (!this.#timers.delete(timer.id)) return;
    clearTimeout(timer.real);
    timer.callback();
  }
}
