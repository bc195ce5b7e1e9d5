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
import type { HealthMonitor } from "./health_monitor.ts";

/** A namespace that can forgive an outage: its runtime, which also wakes its leader's pass. */
export interface Forgiving {
  /** Namespace name. */
  readonly name: string;
  /** Renews the executors heard before `sinceMs`; returns how many. */
  forgiveOutage(sinceMs: number, now: number): number;
}

/**
 * Renews `namespaces()`' live executors after each silence of the store's pulse
 * (`evidence`: outages, and stalls too short for a probe to notice), or,
 * without a pulse, after each outage `health` reports, taken to have begun
 * `detectionMs` (the longest a probe can take to notice) before it did.
 * Returns the unsubscribe function.
 */
export function graceAfterOutages(
  health: HealthMonitor,
  namespaces: () => Iterable<Forgiving>,
  options: {
    readonly clock: Clock;
    readonly logger: Logger;
    readonly detectionMs: number;
    readonly evidence?: StoreEvidence;
  },
): () => void {
  const forgive = (since: number, now: number) => {
    for (const ns of namespaces()) {
      const renewed = ns.forgiveOutage(since, now);
      if (renewed > 0) {
        options.logger.info("store reachable again; executors get one TTL to be heard", {
          namespace: ns.name,
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
