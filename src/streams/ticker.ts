/**
 * A periodic timer as a stream.
 *
 * @module
 */
import { type Clock, startTimer, systemClock } from "../core/clock.ts";

/** Options of {@linkcode ticker}. */
export interface TickerOptions {
  /** Whose time the ticks follow. @default {systemClock} */
  readonly clock?: Clock;
}

/**
 * Yields the tick number every `periodMs` while read; a slow reader gets the
 * next tick one period after it asks, never a backlog (the stream is pulled,
 * with no buffer). Closes when `signal` aborts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fakeClock } from "../core/fake_clock.ts";
 * import { ticker } from "./ticker.ts";
 *
 * const time = fakeClock();
 * const controller = new AbortController();
 * const reader = ticker(5, controller.signal, { clock: time.clock }).getReader();
 * const first = reader.read();
 * await time.tick(5);
 * assert.equal((await first).value, 1);
 * controller.abort();
 * ```
 */
export function ticker(
  periodMs: number,
  signal: AbortSignal,
  options: TickerOptions = {},
): ReadableStream<number> {
  if (!(periodMs > 0)) throw new RangeError(`Ticker period must be positive, got ${periodMs}`);
  const clock = options.clock ?? systemClock;
  let count = 0;
  return new ReadableStream<number>({
    pull(controller) {
      return new Promise<void>((resolve) => {
        if (signal.aborted) {
          controller.close();
          return resolve();
        }
        const onAbort = () => {
          cancel();
          controller.close();
          resolve();
        };
        const cancel = startTimer(clock, periodMs, () => {
          signal.removeEventListener("abort", onAbort);
          controller.enqueue(++count);
          resolve();
        });
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
  }, { highWaterMark: 0 });
}
