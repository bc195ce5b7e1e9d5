/**
 * Gauges of each namespace read at scrape time for alerting: its shard
 * count, shards nobody owns, and open watch subscriptions.
 *
 * @module
 */
import * as prom from "prom-client";
import type { NamespaceStats } from "../routing/namespace_stats.ts";

/** What the gauges read: the namespaces and, per namespace, its stats and subscriptions. */
export interface NamespaceGaugeSource {
  /** The namespaces to report. */
  listNamespaces(): readonly { readonly name: string }[];
  /** A namespace's stats (cached per scrape by the caller). */
  stats(namespace: string): NamespaceStats;
  /** Open subscriptions to a namespace's pictures. */
  watchSubscribers(namespace: string): number;
  /** Whether the namespace's mass-loss brake holds on this instance (its leader). @default {never} */
  brakeEngaged?(namespace: string): boolean;
}

/**
 * Registers `sm_shards`, `sm_shards_unowned`, `sm_shards_not_running`, `sm_brake_engaged` and
 * `sm_watch_subscribers` on `registry`, each labelled by `namespace`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as prom from "prom-client";
 * import type { NamespaceStats } from "../routing/namespace_stats.ts";
 * import { registerNamespaceGauges } from "./namespace_gauges.ts";
 *
 * const registry = new prom.Registry();
 * registerNamespaceGauges(registry, {
 *   listNamespaces: () => [{ name: "orders" }],
 *   stats: () => ({ totalShards: 8, unownedShards: 2, notRunningShards: 1 }) as NamespaceStats,
 *   watchSubscribers: () => 3,
 * });
 * const text = await registry.metrics();
 * assert.match(text, /^sm_shards_unowned\{namespace="orders"\} 2$/m);
 * assert.match(text, /^sm_shards_not_running\{namespace="orders"\} 1$/m);
 * assert.match(text, /^sm_watch_subscribers\{namespace="orders"\} 3$/m);
 * ```
 */
export function registerNamespaceGauges(
  registry: prom.Registry,
  source: NamespaceGaugeSource,
): void {
  const gauge = (name: string, help: string, read: (ns: string) => number) =>
    new prom.Gauge({
      name,
      help,
      labelNames: ["namespace"],
      registers: [registry],
      collect() {
        this.reset();
        for (const { name: ns } of source.listNamespaces()) this.set({ namespace: ns }, read(ns));
      },
    });
  gauge(
    "sm_shards",
    "Shards of the namespace: shardNum when fixed, else the shards known.",
    (ns) => source.stats(ns).totalShards,
  );
  gauge(
    "sm_shards_unowned",
    "Shards with no owner that no operator drained.",
    (ns) => source.stats(ns).unownedShards,
  );
  gauge(
    "sm_shards_not_running",
    "Exclusive namespaces: shards whose owner is live and whose latest report, as this " +
      "instance saw it, does not show them running (0 in available namespaces).",
    (ns) => source.stats(ns).notRunningShards,
  );
  gauge(
    "sm_brake_engaged",
    "1 while the namespace's mass-loss brake holds (reported by its leader): shards of lost " +
      "executors beyond the survivors' capacity stay unowned and nothing is balanced.",
    (ns) => source.brakeEngaged?.(ns) ? 1 : 0,
  );
  gauge(
    "sm_watch_subscribers",
    "Open subscriptions to the namespace's pictures: gRPC watch streams, dashboards, in-process.",
    (ns) => source.watchSubscribers(ns),
  );
}
