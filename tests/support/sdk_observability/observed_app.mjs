// @ts-check
/**
 * An application that observes the SDK as a user would: OpenTelemetry's API
 * and metrics SDK registered globally (the executor finds the meter by
 * itself), an explicit meter for the spectator, and a logger for each that
 * prints its lines. tests/sdk_observability_project_test.ts copies it into a
 * fresh project, points the SDK import at packages/sdk/, and interrupts the
 * service while it runs.
 *
 * It prints JSON lines: `{ ready }` once the executor runs every shard and
 * the spectator is ready, `{ log }` per log line, `{ metrics }` (what the
 * reader collected) once heartbeats and the watch have recovered, and again
 * after shutdown, then `{ done }`.
 *
 * The same file runs on Deno and on Node.js.
 *
 * Environment: SM_ADDRESS, SM_NAMESPACE, SM_SHARDS.
 *
 * @module
 */
import process from "node:process";
import { metrics } from "@opentelemetry/api";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { Executor, Spectator } from "../../../packages/sdk/mod.ts";

/** A pull reader: the app collects when it wants to. */
class Reader extends MetricReader {
  /** @override */
  onForceFlush() {
    return Promise.resolve();
  }
  /** @override */
  onShutdown() {
    return Promise.resolve();
  }
}

/** @param {Record<string, unknown>} line */
function print(line) {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/**
 * @param {string} component
 * @returns {import("../../../packages/sdk/mod.ts").Logger}
 */
function logger(component) {
  const at = (/** @type {string} */ level) => (/** @type {string} */ message) =>
    print({ log: level, component, message });
  return { debug: () => {}, info: at("info"), warn: at("warn"), error: at("error") };
}

async function collect() {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics.flatMap((scope) =>
    scope.metrics.map((metric) => ({
      scope: scope.scope.name,
      name: metric.descriptor.name,
      unit: metric.descriptor.unit,
      points: metric.dataPoints.map((point) => ({
        attributes: point.attributes,
        value: point.value,
      })),
    }))
  );
}

const reader = new Reader();
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
const address = String(process.env.SM_ADDRESS);
const namespace = String(process.env.SM_NAMESPACE);
const shards = Number(process.env.SM_SHARDS);
setTimeout(() => {
  print({ error: "timed out" });
  process.exit(2);
}, 60_000);

const executor = new Executor({
  addresses: [address],
  namespace,
  heartbeatIntervalMs: 200,
  logger: logger("executor"),
  processor: () => ({ stop: () => {} }),
});
const spectator = new Spectator({
  addresses: [address],
  namespace,
  logger: logger("spectator"),
  meter: metrics.getMeter("orders-app"),
  backoff: { baseMs: 100, maxMs: 500 },
});
const executorEvents = executor.events();
const spectatorEvents = spectator.events();
await executor.start({ timeoutMs: 20_000 });
await spectator.start({ timeoutMs: 20_000 });
for await (const _ of executorEvents) if (executor.runningShards.length === shards) break;
print({ ready: true });

let recovered = false, reconnected = false;
const watchRecovery = (async () => {
  for await (const event of spectatorEvents) {
    print({ spectatorEvent: event.type });
    if (event.type === "connected" && event.attempts > 0) break;
  }
  reconnected = true;
})();
for await (const event of executor.events()) {
  if (event.type === "heartbeat-recovered") break;
}
recovered = true;
await watchRecovery;
print({ recovered, reconnected, metrics: await collect() });
await executor.shutdown();
await spectator.close();
print({ metrics: await collect() });
print({ done: true });
process.exit(0);
