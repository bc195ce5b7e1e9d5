/**
 * The history sweep: every instance, every `HistoryLog.sweepEveryMs` (first
 * at a random point of the first period, so instances started together do
 * not sweep together), trims every namespace's history to its retention.
 * Without it a deleted namespace's events stayed in the store until someone
 * read them again (the soak found the keys growing with every namespace
 * created and deleted), and a live one's stayed past `maxAge` until 50 more
 * events were recorded. Trimming is idempotent, so instances sweeping at once
 * do no harm.
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
 * // A store whose "old" namespace holds only events past the retention.
 * const logs = new Map([["old", 1], ["recent", 1]]);
 * const store = {
 *   historyNamespaces: () => Promise.resolve([...logs.keys()]),
 *   trimHistory: (ns: string) => Promise.resolve(ns === "old" && logs.delete(ns) ? 1 : 0),
 *   appendHistory: () => Promise.resolve(),
 *   readHistory: () => Promise.resolve([]),
 * };
 * const options = { clock: systemClock, logger: silentLogger };
 * const history = new HistoryLog(store, { ...options, writer: "i1" });
 * const stop = new AbortController();
 * const sweeping = runHistorySweep(history, stop.signal, {
 *   ...options,
 *   random: () => 0, // the first sweep at once
 * });
 * await new Promise((resolve) => setTimeout(resolve, 50));
 * stop.abort();
 * await sweeping;
 * assert.deepEqual([...logs.keys()], ["recent"]);
 * ```
 */
export async function runHistorySweep(
  history: HistoryLog,
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
      const dropped = await history.sweep();
      if (dropped > 0) {
        options.logger.debug("history trimmed to its retention", { events: dropped });
      }
    } catch (error) {
      options.logger.warn("history not trimmed; tried again later", {
        error,
      });
    }
  }
}
