/**
 * Stops waiting for a call that does not take a signal (an etcd3 request,
 * say, which retries while the cluster is down) once a signal aborts. The
 * call itself runs on; only the wait ends.
 *
 * @module
 */

/**
 * Settles like `work`, or rejects with `signal.reason` once `signal` aborts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { untilAborted } from "./until_aborted.ts";
 *
 * const stop = new AbortController();
 * const waiting = untilAborted(new Promise(() => {}), stop.signal);
 * stop.abort(new Error("shutting down"));
 * await assert.rejects(waiting, { message: "shutting down" });
 * ```
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(signal.reason);
  }
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  work.catch(() => {}); // a late failure after giving up is nobody's to handle
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}
