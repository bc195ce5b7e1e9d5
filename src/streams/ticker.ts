/**
 * A periodic timer as a stream.
 *
 * @module
 */

/**
 * Yields the tick number every `periodMs` while read; a slow reader gets the
 * next tick one period after it asks, never a backlog. Closes when `signal` aborts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ticker } from "./ticker.ts";
 * const controller = new AbortController();
 * const reader = ticker(5, controller.signal).getReader();
 * assert.equal((await reader.read()).value, 1);
 * controller.abort();
 * ```
 */
export function ticker(periodMs: number, signal: AbortSignal): ReadableStream<number> {
  if (!(periodMs > 0)) throw new RangeError(`Ticker period must be positive, got ${periodMs}`);
  let count = 0;
  return new ReadableStream<number>({
    pull(controller) {
      return new Promise<void>((resolve) => {
        if (signal.aborted) {
          controller.close();
          return resolve();
        }
        const onAbort = () => {
          clearTimeout(timer);
          controller.close();
          resolve();
        };
        const timer = setTimeout(() => {
          signal.removeEventListener("abort", onAbort);
          controller.enqueue(++count);
          resolve();
        }, periodMs);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
  }, { highWaterMark: 0 });
}
