/**
 * The evidence that the main store answers ({@linkcode StoreEvidence}): a
 * cheap read (`Store.ping`, a keys-only range of one key) whenever nothing
 * was heard for `intervalMs`, one at a time. A read that hangs (the store
 * stalled) leaves the store silent until it returns or its deadline passes;
 * a read that fails counts for nothing and is tried again after
 * {@linkcode RETRY_MS}.
 *
 * @module
 */
import { type Clock, sleep, systemClock } from "../core/clock.ts";
import type { StoreEvidence } from "../core/store_evidence.ts";

/** How long without an answer the store counts as silent, ms. */
export const STORE_SILENCE_MS = 1_000;

/** How soon a read that failed is tried again, ms (at most `intervalMs`). */
export const RETRY_MS = 100;

/** Options of {@linkcode runStorePulse}. */
export interface StorePulseOptions {
  /** Read when nothing was heard for this long. @default {STORE_SILENCE_MS / 4} */
  readonly intervalMs?: number;
  /** Time source. @default {systemClock} */
  readonly clock?: Clock;
}

/**
 * Reads the store whenever nothing was heard for `intervalMs` and tells
 * `evidence` of each answer, until `signal` aborts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StoreEvidence } from "../core/store_evidence.ts";
 * import { runStorePulse } from "./store_pulse.ts";
 *
 * const evidence = new StoreEvidence({ silenceMs: 100 });
 * const stop = new AbortController();
 * let pings = 0;
 * const pulse = runStorePulse({ ping: async () => void pings++ }, evidence, stop.signal, {
 *   intervalMs: 10,
 * });
 * await new Promise((resolve) => setTimeout(resolve, 50));
 * stop.abort();
 * await pulse;
 * assert.ok(pings >= 2);
 * assert.equal(evidence.silentAt(performance.now()), false);
 * ```
 */
export async function runStorePulse(
  store: { ping(): Promise<void> },
  evidence: StoreEvidence,
  signal: AbortSignal,
  options: StorePulseOptions = {},
): Promise<void> {
  const clock = options.clock ?? systemClock;
  const intervalMs = options.intervalMs ?? STORE_SILENCE_MS / 4;
  if (!(intervalMs > 0)) {
    throw new RangeError(`intervalMs must be a positive number of ms, got ${intervalMs}`);
  }
  const aborted = new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
  while (!signal.aborted) {
    const last = evidence.last;
    const quietFor = last === undefined ? Infinity : clock.monotonic() - last.now;
    if (quietFor >= intervalMs) {
      const answered = await Promise.race([
        store.ping().then(() => true, () => false),
        aborted.then(() => false),
      ]);
      if (answered && !signal.aborted) evidence.heard();
      // A failed read (one etcd member did not answer in time) is tried again soon, on
      // another member, before the silence counts as an outage.
      const next = answered ? intervalMs : Math.min(intervalMs, RETRY_MS);
      await sleep(next, signal, clock).catch(() => {});
    } else {
      await sleep(intervalMs - quietFor, signal, clock).catch(() => {});
    }
  }
}
