/**
 * An abortable sleep.
 *
 * @module
 */

/**
 * Resolves after `ms`, or as soon as `signal` aborts (it never rejects).
 *
 * @example
 * ```ts
 * import { sleep } from "./sleep.ts";
 *
 * await sleep(1, new AbortController().signal);
 * ```
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
