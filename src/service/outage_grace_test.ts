import assert from "node:assert/strict";
import type { Clock } from "../core/clock.ts";
import { silentLogger } from "../core/logger.ts";
import type { Store } from "../store/store.ts";
import { NamespaceCache } from "../state/namespace_cache.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import { HealthMonitor } from "./health_monitor.ts";
import { graceAfterOutages } from "./outage_grace.ts";

const TTL = 3_000;

Deno.test("after a store outage, executors alive when it began get one TTL from its end", async () => {
  let now = 0;
  let reachable = true;
  const clock: Clock = { now: () => 1_700_000_000_000 + now, monotonic: () => now };
  const store = { ping: () => reachable ? Promise.resolve() : Promise.reject(new Error("down")) };
  const health = new HealthMonitor(store as unknown as Store, () => true, { clock });
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  const heartbeat = (executorId: string) => ({
    type: "heartbeat" as const,
    executorId,
    record: { status: "ACTIVE" as const, timestampMs: 0 },
  });
  state.apply({ revision: 2, events: [heartbeat("long-gone")] }, 0);
  now = 10_000;
  state.apply({ revision: 3, events: [heartbeat("a")] }, now);
  const cache = new NamespaceCache(store as unknown as Store, "ns", {
    heartbeatTtlMs: TTL,
    logger: silentLogger,
    state,
  });
  const ns = {
    name: "ns",
    forgiveOutage: (since: number, at: number) => cache.forgiveOutage(since, at),
  };
  graceAfterOutages(health, () => [ns], { clock, logger: silentLogger, detectionMs: 4_000 });
  const triggers = cache.triggers.version;
  await health.probe();

  now = 11_000; // etcd goes away; noticed at once
  reachable = false;
  await health.probe();
  now = 40_000; // back after 29 s: "a" has been silent for 30 s, through no fault of its own
  reachable = true;
  await health.probe();

  assert.equal(state.isAlive(state.executor("a")!, 40_000 + TTL - 1), true);
  assert.equal(state.isAlive(state.executor("a")!, 40_000 + TTL + 1), false);
  assert.equal(state.isAlive(state.executor("long-gone")!, 40_000), false, "stale before");
  assert.ok(cache.triggers.version > triggers, "the leader's pass is told");
});
