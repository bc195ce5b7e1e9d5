/**
 * The sweep of deleted namespaces' history: every instance, every
 * `HistoryLog.sweepEveryMs` (first at a random point of the first period, so
 * instances started together do not sweep together), trims the history of
 * namespaces that no longer exist to its retention. Without it a deleted
 * namespace's events stayed in the store until someone read them again (the
 * soak found the keys growing with every namespace created and deleted).
 * Trimming is idempotent, so instances sweeping at once do no harm.
 *
 * @module
 */
import { type Clock, sleep } from "../core/clock.ts";
import type { Logger } from "../core/logger.ts";
import type { HistoryLog } from "./history_log.ts";

/**
 * Sweeps until `signal` aborts; a failed sweep (the store down) is logged
 * and tried again a period later.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemClock } from "../core/clock.ts";
 * import { silentLogger } from "../core/logger.ts";
 * import { HistoryLog } from "./history_log.ts";
 * import { runHistorySweep } from "./history_sweep.ts";
 *
 * // A store holding one event of "gone", a namespace deleted long ago.
 * const logs = new Map([["gone", 1], ["live", 1]]);
 * const store = {
 *   historyNamespaces: () => Promise.resolve([...logs.keys()]),
 *   trimHistory: (ns: string) => Promise.resolve(logs.delete(ns) ? 1 : 0),
 *   appendHistory: () => Promise.resolve(),
 *   readHistory: () => Promise.resolve([]),
 * };
 * const options = { clock: systemClock, logger: silentLogger };
 * const history = new HistoryLog(store, { ...options, writer: "i1" });
 * const stop = new AbortController();
 * const sweeping = runHistorySweep(history, (ns) => ns === "live", stop.signal, {
 *   ...options,
 *   random: () => 0, // the first sweep at once
 * });
 * await new Promise((resolve) => setTimeout(resolve, 50));
 * stop.abort();
 * await sweeping;
 * assert.deepEqual([...logs.keys()], ["live"]);
 * ```
 */
export async function runHistorySweep(
  history: HistoryLog,
  exists: (namespace: string) => boolean,
  signal: AbortSignal,
  options: { readonly clock: Clock; readonly logger: Logger; readonly random?: () => number },
): Promise<void> {
  const every = history.sweepEveryMs;
  let wait = Math.round((options.random ?? Math.random)() * every);
  while (!signal.aborted) {
    try {
      await sleep(wait, signal, options.clock);
    } catch {
      return; // stopping
    }
    wait = every;
    try {
      const dropped = await history.sweepRemoved(exists);
      if (dropped > 0) {
        options.logger.debug("history of deleted namespaces trimmed", { events: dropped });
      }
    } catch (error) {
      options.logger.warn("history of deleted namespaces not trimmed; tried again later", {
        error,
      });
    }
  }
}
