/**
 * Lets one caller stop waiting for a shared promise without cancelling it
 * for the others.
 *
 * @module
 */

/**
 * `promise`, or a rejection with `signal.reason` as soon as `signal` aborts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { abortable } from "./_abortable.ts";
 *
 * const controller = new AbortController();
 * const waiting = abortable(new Promise(() => {}), controller.signal);
 * controller.abort(new Error("gave up"));
 * await assert.rejects(waiting, { message: "gave up" });
 * ```
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
