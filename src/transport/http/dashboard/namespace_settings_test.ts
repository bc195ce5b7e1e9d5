import assert from "node:assert/strict";
import type { NamespaceConfig } from "../../../config/mod.ts";
import { namespacePolicy } from "../../../policy/namespace_policy.ts";
import { namespaceSettings } from "./namespace_settings.ts";

const CONTEXT = {
  process: {
    periodMs: 500,
    heartbeatTtlMs: 3_000,
    rebalanceCooldownMs: 50,
    maxMovesPerPass: 1_000,
  },
  limits: { maxEphemeralShards: 10_000 },
  maxReliedOn: 100,
};

function settingsOf(config: NamespaceConfig): Record<string, string> {
  return Object.fromEntries(
    namespaceSettings(namespacePolicy(config, CONTEXT)).map((s) => [s.key, s.value]),
  );
}

Deno.test("namespace settings list ownership, balancer, budgets and timings with defaults applied", () => {
  assert.deepEqual(
    settingsOf({
      kind: "fixed",
      name: "orders",
      shardNum: 64,
      loadBalancer: "naive",
      ownership: { mode: "available" },
      maxMovesPerPass: 5,
      maxDrainedShare: 0.25,
    }),
    {
      type: "fixed, 64 shards",
      ownership: "available",
      loadBalancer: "naive",
      maxMovesPerPass: "5",
      settleWindow: "3s",
      shardCooldown: "1m",
      minImprovement: "0.1",
      coldStartWait: "30s",
      maxDrainedShare: "25% of live executors",
      quarantineThreshold: "3 executors",
      quarantineWindow: "10m",
      heartbeatTTL: "3s",
      period: "500ms",
      rebalanceCooldown: "50ms",
    },
  );
});

Deno.test("namespace settings name an exclusive lease, a sticky namespace, replicas and cells", () => {
  const exclusive = settingsOf({
    kind: "ephemeral",
    name: "jobs",
    loadBalancer: "greedy",
    ownership: { mode: "exclusive", leaseMs: 4_000 },
    maxMovesPerPass: 0,
  });
  assert.equal(exclusive.type, "ephemeral, at most 10000 shards");
  assert.equal(exclusive.ownership, "exclusive (lease 4s)");
  assert.equal(exclusive.maxMovesPerPass, "0 (sticky)");
  assert.equal(exclusive.maxDrainedShare, "50% of live executors");
  const replicated = settingsOf({
    kind: "fixed",
    name: "r",
    shardNum: 8,
    loadBalancer: "greedy",
    ownership: { mode: "available" },
    replication: { replicas: 3, zoneKey: "zone", placement: "shuffle", maxOverlap: 2 },
  });
  assert.equal(replicated.loadBalancer, "none: 3 replicas, shuffle placement, maxOverlap 2");
  const cells = settingsOf({ kind: "cells", name: "c", pins: { t1: "cell-1" } });
  assert.equal(cells.type, "ephemeral, cells, at most 10000 shards");
  assert.equal(cells.loadBalancer, "none: a tenant stays on its cell");
  assert.equal(cells.pins, "1");
  assert.equal(cells.maxMovesPerPass, undefined);
});
