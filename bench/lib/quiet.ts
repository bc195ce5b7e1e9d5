/**
 * Waiting for a namespace to be quiet: no rebalance pass planned for a while.
 * A pass is planned only when one of its inputs changed, so a quiet namespace
 * is one where nothing changes any more, the state a "steady" figure means.
 *
 * @module
 */
import { scrape, sumMetric } from "./prom.ts";
import type { ServiceProcess } from "./service.ts";
import { sleep } from "./wait.ts";

/** What {@linkcode untilQuiet} saw. */
export interface Quiet {
  /** From the start to the last pass before the quiet time, ms (0: none). */
  readonly lastPassMs: number;
  /** Whether the quiet time came within the limit. */
  readonly quiet: boolean;
  /** The largest `sm_heartbeat_lag_max_seconds` seen meanwhile. */
  readonly lagS: number;
}

/**
 * Polls `namespace`'s `sm_rebalance_passes_total` every second until it has
 * not moved for `quietMs` (and at least `minMs` have passed), or `maxMs` pass.
 */
export async function untilQuiet(
  service: ServiceProcess,
  namespace: string,
  options: { readonly quietMs: number; readonly minMs?: number; readonly maxMs: number },
): Promise<Quiet> {
  const ns = { namespace };
  const started = performance.now();
  const read = async () => {
    const metrics = await scrape(service.httpAddress);
    return {
      passes: sumMetric(metrics, "sm_rebalance_passes_total", ns),
      lagS: sumMetric(metrics, "sm_heartbeat_lag_max_seconds", ns),
    };
  };
  let last = (await read()).passes;
  let lastChange = started;
  let lagS = 0;
  while (performance.now() - started < options.maxMs) {
    await sleep(1_000);
    const now = performance.now();
    const seen = await read();
    lagS = Math.max(lagS, seen.lagS);
    if (seen.passes !== last) [last, lastChange] = [seen.passes, now];
    if (now - started >= (options.minMs ?? 0) && now - lastChange >= options.quietMs) {
      return { lastPassMs: lastChange - started, quiet: true, lagS };
    }
  }
  return { lastPassMs: lastChange - started, quiet: false, lagS };
}
