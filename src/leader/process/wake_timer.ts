/**
 * A trigger stream fed by one timer: the leader sets it for when a waiting
 * handover may proceed (an ownership lease running out), so a pass runs then
 * even when nothing else happens.
 *
 * @module
 */
import { type Clock, startTimer } from "../../core/clock.ts";

/**
 * One timer on a {@linkcode Clock}, as a `ReadableStream` of the monotonic
 * times it fired for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemClock } from "../../core/clock.ts";
 * import { WakeTimer } from "./wake_timer.ts";
 *
 * const stop = new AbortController();
 * const wake = new WakeTimer(stop.signal, systemClock);
 * wake.at(systemClock.monotonic());
 * const reader = wake.readable.getReader();
 * assert.equal(typeof (await reader.read()).value, "number");
 * stop.abort();
 * assert.equal((await reader.read()).done, true);
 * ```
 */
export class WakeTimer {
  /** Fires once per setting that was not replaced or cancelled. */
  readonly readable: ReadableStream<number>;
  #controller!: ReadableStreamDefaultController<number>;
  #cancel: (() => void) | undefined;
  #clock: Clock;

  /** A timer that closes its stream when `signal` aborts. */
  constructor(signal: AbortSignal, clock: Clock) {
    this.#clock = clock;
    this.readable = new ReadableStream<number>({ start: (c) => void (this.#controller = c) });
    signal.addEventListener("abort", () => this.cancel(), { once: true });
  }

  /** Fires at monotonic time `atMs` (replacing any earlier setting); undefined clears it. */
  at(atMs: number | undefined): void {
    this.#clear();
    if (atMs === undefined) return;
    const delay = Math.max(0, Math.ceil(atMs - this.#clock.monotonic()) + 1);
    this.#cancel = startTimer(this.#clock, delay, () => {
      this.#cancel = undefined;
      try {
        this.#controller.enqueue(atMs);
      } catch { /* closed */ }
    });
  }

  /** Clears the timer and closes the stream. */
  cancel(): void {
    this.#clear();
    try {
      this.#controller.close();
    } catch { /* already closed */ }
  }

  #clear(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }
}
