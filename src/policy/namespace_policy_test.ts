import assert from "node:assert/strict";
import { livenessOf, namespacePolicy } from "./namespace_policy.ts";
import { DEFAULT_PROCESS, policyOf } from "./_testing.ts";

Deno.test("a fixed namespace's policy has its shard count, and an ephemeral one's its cap", () => {
  const fixed = policyOf({
    kind: "fixed",
    name: "f",
    shardNum: 8,
    loadBalancer: "naive",
    ownership: { mode: "available" },
  });
  assert.deepEqual(fixed.keys, { kind: "fixed", shardNum: 8 });
  assert.equal(fixed.placement.kind, "balanced");
  const ephemeral = policyOf({
    kind: "ephemeral",
    name: "e",
    loadBalancer: "greedy",
    ownership: { mode: "available" },
  });
  assert.deepEqual(ephemeral.keys, { kind: "ephemeral", maxShards: 100_000 });
  const capped = policyOf({
    kind: "ephemeral",
    name: "e",
    maxShards: 5,
    loadBalancer: "greedy",
    ownership: { mode: "available" },
  });
  assert.deepEqual(capped.keys, { kind: "ephemeral", maxShards: 5 });
});

Deno.test("exclusive ownership carries its lease (the heartbeat TTL by default) into the planner and liveness", () => {
  const sharded = {
    kind: "fixed",
    name: "x",
    shardNum: 4,
    loadBalancer: "greedy",
  } as const;
  const leased = policyOf({ ...sharded, ownership: { mode: "exclusive", leaseMs: 9_000 } });
  assert.deepEqual(leased.ownership, { mode: "exclusive", leaseMs: 9_000 });
  assert.ok(leased.placement.kind === "balanced");
  assert.deepEqual(leased.placement.exclusive, { leaseMs: 9_000, maxReliedOn: 100 });
  assert.deepEqual(livenessOf(leased), { heartbeatTtlMs: 2_000, ownershipLeaseMs: 9_000 });

  const byTtl = policyOf({ ...sharded, ownership: { mode: "exclusive" } }, {
    heartbeatTtlMs: 3_000,
  });
  assert.deepEqual(byTtl.ownership, { mode: "exclusive", leaseMs: 3_000 });

  const available = policyOf({ ...sharded, ownership: { mode: "available" } });
  assert.deepEqual(available.ownership, { mode: "available" });
  assert.ok(available.placement.kind === "balanced");
  assert.equal(available.placement.exclusive, undefined);
  assert.deepEqual(livenessOf(available), { heartbeatTtlMs: 2_000 });
});

Deno.test("a replicated namespace is placed by owner sets, a cells namespace by its pins", () => {
  const replicated = policyOf({
    kind: "ephemeral",
    name: "r",
    loadBalancer: "greedy",
    ownership: { mode: "available" },
    replication: { replicas: 3, zoneKey: "zone", placement: "shuffle", maxOverlap: 2 },
  });
  assert.ok(replicated.placement.kind === "replicated");
  assert.equal(replicated.placement.replicas, 3);
  assert.equal(replicated.placement.maxOverlap, 2);

  const cells = policyOf({ kind: "cells", name: "c", maxShards: 50, pins: { t1: "cell-1" } });
  assert.deepEqual(cells.keys, { kind: "cells", maxShards: 50 });
  assert.deepEqual(cells.ownership, { mode: "available" });
  assert.ok(cells.placement.kind === "cells");
  assert.deepEqual([...cells.placement.pins], [["t1", "cell-1"]]);
});

Deno.test("budgets apply the process timings and the drain budget's default", () => {
  const policy = policyOf({ kind: "cells", name: "c", pins: {} });
  assert.deepEqual(policy.budgets, {
    heartbeatTtlMs: DEFAULT_PROCESS.heartbeatTtlMs,
    periodMs: DEFAULT_PROCESS.periodMs,
    cooldownMs: DEFAULT_PROCESS.rebalanceCooldownMs,
    executorRetentionMs: 60_000,
    maxDrainedShare: 0.5,
    quarantine: {
      threshold: 3,
      windowMs: 600_000,
      recentMs: 2 * DEFAULT_PROCESS.heartbeatTtlMs,
      massShare: 0.1,
      massWindowMs: DEFAULT_PROCESS.heartbeatTtlMs / 2,
    },
  });
  const tight = policyOf({ kind: "cells", name: "c", pins: {}, maxDrainedShare: 0.2 });
  assert.equal(tight.budgets.maxDrainedShare, 0.2);
  assert.equal(
    policyOf({ kind: "cells", name: "c", pins: {} }, { heartbeatTtlMs: 10_000 })
      .budgets.executorRetentionMs,
    100_000,
  );
});

Deno.test("a first deploy waits for its fleet by default: coldStartWait 30s over the 3s settling window", () => {
  const base = {
    kind: "fixed",
    name: "f",
    shardNum: 8,
    loadBalancer: "greedy",
    ownership: { mode: "available" },
  } as const;
  const churnOf = (p: ReturnType<typeof policyOf>) =>
    p.placement.kind === "cells" || p.placement.kind === "ranges" ? undefined : p.placement.churn;
  assert.equal(churnOf(policyOf(base))?.coldStartWaitMs, 30_000);
  assert.equal(churnOf(policyOf(base))?.settleWindowMs, 3_000);
  assert.equal(churnOf(policyOf({ ...base, coldStartWaitMs: 0 }))?.coldStartWaitMs, 0);
  const replicated = policyOf({
    kind: "ephemeral",
    name: "r",
    loadBalancer: "greedy",
    ownership: { mode: "available" },
    replication: { replicas: 2, zoneKey: "zone", placement: "balanced" },
  });
  assert.equal(churnOf(replicated)?.coldStartWaitMs, 30_000);
});

Deno.test("executorCapacity reaches the planner, and massLoss the budgets with its defaults", () => {
  const sharded = {
    kind: "fixed",
    name: "o",
    shardNum: 8,
    loadBalancer: "greedy",
    ownership: { mode: "available" },
  } as const;
  const sized = policyOf({
    ...sharded,
    executorCapacity: { shards: 3, load: 2.5 },
    massLoss: { share: 0.5, windowMs: 10_000, minLost: 3 },
  });
  assert.equal(sized.placement.kind, "balanced");
  assert.deepEqual(
    sized.placement.kind === "balanced" ? sized.placement.capacity : undefined,
    { shards: 3, load: 2.5 },
  );
  assert.deepEqual(sized.budgets.massLoss, { share: 0.5, windowMs: 10_000, minLost: 3 });
  // Defaults: more than 30% within 2 × heartbeatTTL, at least 3 executors; no capacity.
  const plain = policyOf(sharded, { heartbeatTtlMs: 3_000 });
  assert.deepEqual(plain.budgets.massLoss, { share: 0.5, windowMs: 6_000, minLost: 3 });
  assert.equal(plain.placement.kind === "balanced" ? plain.placement.capacity : "?", undefined);
  // Cells have no brake.
  const cells = policyOf({ kind: "cells", name: "c", pins: {} });
  assert.equal(cells.budgets.massLoss, undefined);
});

Deno.test("warm handover stays off on a store at release 0.1.0's format, whatever prepareTimeout says", () => {
  const config = {
    kind: "fixed",
    name: "w",
    shardNum: 4,
    loadBalancer: "greedy",
    ownership: { mode: "available" },
    prepareTimeoutMs: 10_000,
  } as const;
  const context = { process: DEFAULT_PROCESS, limits: { maxEphemeralShards: 10 }, maxReliedOn: 1 };
  const on = namespacePolicy(config, context);
  const off = namespacePolicy(config, { ...context, warmHandoverFormat: false });
  assert.ok(on.placement.kind === "balanced" && on.placement.warm?.prepareTimeoutMs === 10_000);
  assert.ok(off.placement.kind === "balanced" && off.placement.warm === undefined);
});
