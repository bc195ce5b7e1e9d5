/**
 * `GET /api/namespaces/:ns/history`: the namespace's history, or, when it
 * cannot be read, a `503` whose message says why in plain words (the page
 * shows "History unavailable: <why>" instead of "No events"). While the
 * serving instance knows its store is unreachable it does not try; a read
 * the store does not answer in time is given up.
 *
 * @module
 */
import { type Clock, sleep, systemClock } from "../../../core/clock.ts";
import type { HistoryEvent } from "../../../core/history_event.ts";
import type { HistoryLog } from "../../../service/mod.ts";
import type { HealthStatus } from "../../../service/mod.ts";
import { httpStatusOf, jsonError } from "./http_errors.ts";

/** Longest wait for the store to answer a history read, ms. */
export const HISTORY_READ_TIMEOUT_MS = 3_000;

/** What the history route reads. */
export interface HistorySource {
  /** Store reachability of the serving instance. */
  readonly health: { readonly status: HealthStatus };
  /** The history; absent: the timeline stays empty. */
  readonly history?: Pick<HistoryLog, "read">;
}

/**
 * Answers a history read of `namespace` since `sinceMs` (0: all kept).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyResponse } from "./history_route.ts";
 *
 * const res = await historyResponse({
 *   health: { status: { storeReachable: false, synced: true, ready: false, checkedAtMs: 1, error: "the store has not answered for 4.0 s" } },
 *   history: { read: () => Promise.resolve([]) },
 * }, "orders", 0);
 * assert.equal(res.status, 503);
 * assert.match((await res.json()).error, /store is unreachable/);
 * ```
 */
export async function historyResponse(
  source: HistorySource,
  namespace: string,
  sinceMs: number,
  options: {
    readonly timeoutMs?: number;
    /** Whose time the timeout runs on. @default {systemClock} */
    readonly clock?: Clock;
  } = {},
): Promise<Response> {
  const health = source.health.status;
  if (!health.storeReachable) {
    return jsonError(
      503,
      "the store is unreachable" + (health.error ? ` (${health.error})` : "") +
        ", so this instance cannot read the history",
    );
  }
  const history = source.history;
  if (!history) return Response.json({ namespace, events: [] }, { headers: NO_STORE });
  const timeoutMs = options.timeoutMs ?? HISTORY_READ_TIMEOUT_MS;
  const timer = new AbortController();
  try {
    const events = await Promise.race([
      history.read(namespace, sinceMs > 0 ? { sinceMs } : {}),
      // (Aborted once the read settled: then it answers nothing, as the race is over.)
      sleep(timeoutMs, timer.signal, options.clock ?? systemClock).then((): HistoryEvent[] => {
        throw new HistoryTimeout(timeoutMs);
      }, (): HistoryEvent[] => []),
    ]);
    return Response.json({ namespace, events }, { headers: NO_STORE });
  } catch (error) {
    if (error instanceof HistoryTimeout) return jsonError(503, error.message);
    const status = httpStatusOf(error);
    const message = error instanceof Error ? error.message : String(error);
    if (status !== undefined && status !== 503) return jsonError(status, message);
    return jsonError(503, `the history could not be read: ${message}`);
  } finally {
    timer.abort();
  }
}

const NO_STORE = { "cache-control": "no-store" };

class HistoryTimeout extends Error {
  constructor(ms: number) {
    super(`the store did not answer the history read within ${ms / 1_000} s`);
    this.name = "HistoryTimeout";
  }
}
