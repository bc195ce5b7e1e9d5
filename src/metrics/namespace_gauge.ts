/**
 * A gauge with one series per served namespace, read at each scrape: the
 * shape of most of the service's per-namespace metrics.
 *
 * @module
 */
import * as prom from "prom-client";

/**
 * Registers gauge `name` in `registers`, set at each scrape to `read(ns)`
 * for every namespace `namespaces()` lists (series of namespaces gone are
 * dropped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as prom from "prom-client";
 * import { namespaceGauge } from "./namespace_gauge.ts";
 *
 * const registry = new prom.Registry();
 * namespaceGauge([registry], () => [{ name: "orders" }], "x", "help", () => 2);
 * assert.match(await registry.metrics(), /^x\{namespace="orders"\} 2$/m);
 * ```
 */
export function namespaceGauge(
  registers: prom.Registry[],
  namespaces: () => Iterable<{ readonly name: string }>,
  name: string,
  help: string,
  read: (ns: string) => number,
): prom.Gauge<"namespace"> {
  return new prom.Gauge({
    name,
    help,
    labelNames: ["namespace"],
    registers,
    collect() {
      this.reset();
      for (const { name: ns } of namespaces()) this.set({ namespace: ns }, read(ns));
    },
  });
}
