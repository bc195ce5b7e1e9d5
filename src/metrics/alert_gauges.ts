/**
 * Gauges that let alert rules fire in time, read at scrape time: how long
 * the store has been unreachable (so a rule need not count scrapes), each
 * namespace's heartbeat TTL (so heartbeat lag can be judged against it) and
 * the age of its oldest executor drain.
 *
 * @module
 */
import * as prom from "prom-client";
import { type Clock, systemClock } from "../core/clock.ts";
import { namespaceGauge } from "./namespace_gauge.ts";

/** What the gauges read. */
export interface AlertGaugeSource {
  /** The namespaces to report. */
  listNamespaces(): readonly { readonly name: string }[];
  /** The namespace's `heartbeatTTL`, ms. */
  heartbeatTtlMs(namespace: string): number;
  /** When each executor drain in force was made (ms since epoch; 0 when unknown). */
  drainTimesMs(namespace: string): Iterable<number>;
  /**
   * While the store is unreachable: the monotonic time (ms, on the clock
   * below) of its last answer; undefined while it answers.
   */
  storeLostSinceMs(): number | undefined;
}

/** Options of {@linkcode registerAlertGauges}. */
export interface AlertGaugeOptions {
  /** The clock of `storeLostSinceMs` and of drain ages. @default {systemClock} */
  readonly clock?: Clock;
}

/**
 * Registers `sm_store_unreachable_seconds`, `sm_heartbeat_ttl_seconds` and
 * `sm_executor_drain_oldest_seconds` on `registry`. A drain without a
 * creation time is left out of the oldest's age (it cannot be dated).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as prom from "prom-client";
 * import { registerAlertGauges } from "./alert_gauges.ts";
 *
 * const registry = new prom.Registry();
 * const clock = { now: () => 10_000_000, monotonic: () => 50_000 };
 * registerAlertGauges(registry, {
 *   listNamespaces: () => [{ name: "orders" }],
 *   heartbeatTtlMs: () => 2_000,
 *   drainTimesMs: () => [10_000_000 - 3_600_000, 0],
 *   storeLostSinceMs: () => 37_500,
 * }, { clock });
 * const text = await registry.metrics();
 * assert.match(text, /^sm_store_unreachable_seconds 12\.5$/m);
 * assert.match(text, /^sm_heartbeat_ttl_seconds\{namespace="orders"\} 2$/m);
 * assert.match(text, /^sm_executor_drain_oldest_seconds\{namespace="orders"\} 3600$/m);
 * ```
 */
export function registerAlertGauges(
  registry: prom.Registry,
  source: AlertGaugeSource,
  options: AlertGaugeOptions = {},
): void {
  const clock = options.clock ?? systemClock;
  const registers = [registry];
  const perNamespace = (name: string, help: string, read: (ns: string) => number) =>
    namespaceGauge(registers, () => source.listNamespaces(), name, help, read);
  new prom.Gauge({
    name: "sm_store_unreachable_seconds",
    help: "Seconds since the main store last answered, while this instance counts it " +
      "unreachable (1 s of silence, or a failed probe); 0 while it answers.",
    registers,
    collect() {
      const since = source.storeLostSinceMs();
      this.set(since === undefined ? 0 : Math.max(0, clock.monotonic() - since) / 1000);
    },
  });
  perNamespace(
    "sm_heartbeat_ttl_seconds",
    "The namespace's heartbeatTTL: an executor not heard for this long is lost.",
    (ns) => source.heartbeatTtlMs(ns) / 1000,
  );
  perNamespace(
    "sm_executor_drain_oldest_seconds",
    "Age of the oldest executor drain in force (from its creation time), 0 when none.",
    (ns) => {
      const now = clock.now();
      let oldest = 0;
      for (const createdAtMs of source.drainTimesMs(ns)) {
        if (Number.isFinite(createdAtMs) && createdAtMs > 0) {
          oldest = Math.max(oldest, now - createdAtMs);
        }
      }
      return oldest / 1000;
    },
  );
}
