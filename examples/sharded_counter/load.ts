/**
 * A steady stream of increments: open loop (a request starts on schedule
 * whether or not earlier ones have finished, as independent users would
 * send them), on keys picked at random.
 *
 * @module
 */
import type { CounterClient, RequestResult } from "./client.ts";

/** Options of {@linkcode steadyLoad}. */
export interface SteadyLoadOptions {
  /** Requests started per second. */
  readonly ratePerSecond: number;
  /** Distinct keys to pick from. @default {1000} */
  readonly keys?: number;
  /** Stops starting requests when it aborts. */
  readonly signal: AbortSignal;
  /** Called with each finished request. */
  readonly onResult: (result: RequestResult) => void;
}

/**
 * Sends increments through `client` at a steady rate until `signal`
 * aborts; resolves once every request started has finished.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CounterClient } from "./client.ts";
 * import { steadyLoad } from "./load.ts";
 *
 * const client = new CounterClient({ addressOf: () => undefined }, {
 *   shardCount: 2,
 *   deadlineMs: 10,
 * });
 * const results: string[] = [];
 * await steadyLoad(client, {
 *   ratePerSecond: 100,
 *   signal: AbortSignal.timeout(50),
 *   onResult: (r) => results.push(r.outcome),
 * });
 * assert.ok(results.length > 0 && results.every((o) => o === "failed"));
 * ```
 */
export async function steadyLoad(client: CounterClient, options: SteadyLoadOptions): Promise<void> {
  const rate = options.ratePerSecond;
  if (!(Number.isFinite(rate) && rate > 0)) {
    throw new RangeError(`ratePerSecond must be a finite number > 0, got ${rate}`);
  }
  const keys = options.keys ?? 1_000;
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  for (let n = 0; !options.signal.aborted; n++) {
    const wait = started + (n * 1000) / rate - performance.now();
    if (wait > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, wait);
        function done() {
          clearTimeout(timer);
          options.signal.removeEventListener("abort", done);
          resolve();
        }
        options.signal.addEventListener("abort", done, { once: true });
      });
      if (options.signal.aborted) break;
    }
    const key = `key-${Math.floor(Math.random() * keys)}`;
    const request: Promise<void> = client.increment(key).then(options.onResult).finally(() =>
      inFlight.delete(request)
    );
    inFlight.add(request);
  }
  await Promise.all(inFlight);
}
