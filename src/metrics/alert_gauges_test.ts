import assert from "node:assert/strict";
import * as prom from "prom-client";
import { type AlertGaugeSource, registerAlertGauges } from "./alert_gauges.ts";

function scrape(source: Partial<AlertGaugeSource>, clock = { now: () => 0, monotonic: () => 0 }) {
  const registry = new prom.Registry();
  registerAlertGauges(registry, {
    listNamespaces: () => [],
    heartbeatTtlMs: () => 2_000,
    drainTimesMs: () => [],
    storeLostSinceMs: () => undefined,
    ...source,
  }, { clock });
  return registry.metrics();
}

Deno.test("store unreachable seconds count from the store's last answer, 0 while it answers", async () => {
  let lost: number | undefined = undefined;
  let now = 100_000;
  const clock = { now: () => 0, monotonic: () => now };
  const registry = new prom.Registry();
  registerAlertGauges(registry, {
    listNamespaces: () => [],
    heartbeatTtlMs: () => 2_000,
    drainTimesMs: () => [],
    storeLostSinceMs: () => lost,
  }, { clock });
  assert.match(await registry.metrics(), /^sm_store_unreachable_seconds 0$/m);
  lost = 99_000; // silent for a second: unreachable, counted from the last answer
  assert.match(await registry.metrics(), /^sm_store_unreachable_seconds 1$/m);
  now = 111_000;
  assert.match(await registry.metrics(), /^sm_store_unreachable_seconds 12$/m);
  lost = undefined;
  assert.match(await registry.metrics(), /^sm_store_unreachable_seconds 0$/m);
});

Deno.test("heartbeat TTL is reported per namespace in seconds", async () => {
  const text = await scrape({
    listNamespaces: () => [{ name: "a" }, { name: "b" }],
    heartbeatTtlMs: (ns) => ns === "a" ? 2_000 : 10_000,
  });
  assert.match(text, /^sm_heartbeat_ttl_seconds\{namespace="a"\} 2$/m);
  assert.match(text, /^sm_heartbeat_ttl_seconds\{namespace="b"\} 10$/m);
});

Deno.test("the oldest drain's age ignores drains without a creation time; 0 with none", async () => {
  const hour = 3_600_000;
  const now = 1_800_000_000_000;
  const text = await scrape({
    listNamespaces: () => [{ name: "drained" }, { name: "none" }, { name: "undated" }],
    drainTimesMs: (ns) =>
      ns === "drained" ? [now - hour, now - 5 * hour] : ns === "undated" ? [0, NaN] : [],
  }, { now: () => now, monotonic: () => 0 });
  assert.match(text, /^sm_executor_drain_oldest_seconds\{namespace="drained"\} 18000$/m);
  assert.match(text, /^sm_executor_drain_oldest_seconds\{namespace="none"\} 0$/m);
  assert.match(text, /^sm_executor_drain_oldest_seconds\{namespace="undated"\} 0$/m);
});
