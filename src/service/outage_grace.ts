/**
 * Liveness across a store outage. While etcd is unreachable no heartbeat can
 * be recorded, so once it is back every executor would look stale and the
 * first pass would take every shard from every executor (found by the chaos
 * suite). When the store's pulse (`store_pulse.ts`) hears it again after a
 * silence, an outage or a stall of a second or two alike, executors that were
 * alive at its last answer before count as seen at that moment: they get one
 * heartbeat TTL to be heard again, as after a fresh start. Without a pulse,
 * the health monitor's probes tell when an outage began and ended.
 *
 * @module
 */
import type { Clock } from "../core/clock.ts";
import type { Logger } from "../core/logger.ts";
import type { StoreEvidence } from "../core/store_evidence.ts";
import type { NamespaceCache } from "../state/namespace_cache.ts";
import type { HealthMonitor } from "./health_monitor.ts";

/**
 * Renews `caches()`' live executors after each silence of the store's pulse
 * (`evidence`: outages, and stalls too short for a probe to notice), or,
 * without a pulse, after each outage `health` reports, taken to have begun
 * `detectionMs` (the longest a probe can take to notice) before it did.
 * Returns the unsubscribe function.
 */
export function graceAfterOutages(
  health: HealthMonitor,
  caches: () => Iterable<NamespaceCache>,
  options: {
    readonly clock: Clock;
    readonly logger: Logger;
    readonly detectionMs: number;
    readonly evidence?: StoreEvidence;
  },
): () => void {
  const forgive = (since: number, now: number) => {
    for (const cache of caches()) {
      const renewed = cache.forgiveOutage(since, now);
      if (renewed > 0) {
        options.logger.info("store reachable again; executors get one TTL to be heard", {
          namespace: cache.state.namespace,
          executors: renewed,
          outageMs: Math.round(now - since),
        });
      }
    }
  };
  // The pulse sees every outage, and when it began to within a quarter of a second.
  if (options.evidence) return options.evidence.onResume(forgive);
  let since: number | undefined;
  return health.onChange((status) => {
    const now = options.clock.monotonic();
    if (!status.storeReachable) {
      since ??= now - options.detectionMs;
      return;
    }
    if (since === undefined) return;
    forgive(since, now);
    since = undefined;
  });
}
