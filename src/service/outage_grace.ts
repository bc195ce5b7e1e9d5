/**
 * Liveness across a store outage. While etcd is unreachable no heartbeat can
 * be recorded, so once it is back every executor would look stale and the
 * first pass would take every shard from every executor (found by the chaos
 * suite). When the health monitor sees the store return, executors that were
 * alive when the outage began count as seen at that moment: they get one
 * heartbeat TTL to be heard again, as after a fresh start.
 *
 * @module
 */
import type { Clock } from "../core/clock.ts";
import type { Logger } from "../core/logger.ts";
import type { NamespaceState } from "../state/namespace_state.ts";
import type { HealthMonitor } from "./health_monitor.ts";

/**
 * Renews `states()`'s live executors after each outage `health` reports.
 * `detectionMs` is how long an outage can last before a probe notices it.
 * Returns the unsubscribe function.
 */
export function graceAfterOutages(
  health: HealthMonitor,
  states: () => Iterable<NamespaceState>,
  options: { readonly clock: Clock; readonly logger: Logger; readonly detectionMs: number },
): () => void {
  let since: number | undefined;
  return health.onChange((status) => {
    const now = options.clock.monotonic();
    if (!status.storeReachable) {
      since ??= now - options.detectionMs;
      return;
    }
    if (since === undefined) return;
    for (const state of states()) {
      const renewed = state.forgiveOutage(since, now);
      if (renewed > 0) {
        options.logger.info("store reachable again; executors get one TTL to be heard", {
          namespace: state.namespace,
          executors: renewed,
          outageMs: Math.round(now - since),
        });
      }
    }
    since = undefined;
  });
}
