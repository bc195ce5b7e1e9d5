/**
 * A crash in the etcd client, contained. etcd3's watch manager throws
 * "Failed to find watcher for IWatchResponse" from its stream's data handler
 * when etcd sends a response for a watcher it has already forgotten (one
 * cancelled, or one from before a reconnection, arriving late). Nothing has
 * changed when it throws: the response is dropped either way. But the throw
 * is an unhandled rejection, which ends the process: the soak's instances
 * all exited 1 at once when an etcd member was killed after a compaction.
 * This guard drops that one error with a log line; every other error still
 * ends the process as before.
 *
 * @module
 */
import type { Logger } from "../../core/logger.ts";

const STRAY = "Failed to find watcher for IWatchResponse";

/** Whether `reason` is etcd3's error for a response to a watcher it no longer has. */
export function isStrayWatchResponse(reason: unknown): boolean {
  return reason instanceof Error && reason.message.startsWith(STRAY);
}

let installed: ((event: PromiseRejectionEvent | ErrorEvent) => void) | undefined;

/**
 * Drops etcd3's stray-watch-response error (see the module doc) for the
 * rest of the process, logging each at warn; installed once, whatever the
 * number of calls. Returns a function that removes the guard (for tests).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { silentLogger } from "../../core/logger.ts";
 * import { ignoreStrayWatchResponses } from "./stray_watch_response.ts";
 *
 * const remove = ignoreStrayWatchResponses(silentLogger);
 * const promise = Promise.reject(new Error("something else"));
 * promise.catch(() => {});
 * const other = new PromiseRejectionEvent("unhandledrejection", {
 *   promise,
 *   reason: new Error("something else"),
 *   cancelable: true,
 * });
 * globalThis.dispatchEvent(other);
 * assert.equal(other.defaultPrevented, false); // still ends the process
 * remove();
 * ```
 */
export function ignoreStrayWatchResponses(logger: Logger): () => void {
  if (!installed) {
    installed = (event) => {
      const reason = "reason" in event ? event.reason : event.error;
      if (!isStrayWatchResponse(reason)) return;
      event.preventDefault();
      logger.warn("etcd answered for a watch this instance no longer has; the answer is dropped", {
        error: (reason as Error).message,
      });
    };
    globalThis.addEventListener("unhandledrejection", installed);
    globalThis.addEventListener("error", installed);
  }
  return () => {
    if (!installed) return;
    globalThis.removeEventListener("unhandledrejection", installed);
    globalThis.removeEventListener("error", installed);
    installed = undefined;
  };
}
