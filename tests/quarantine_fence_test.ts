/**
 * The quarantine of a poison shard is a leader write like any other (issue
 * 41): against real etcd, a leader whose claim a newer term replaced (it has
 * not noticed yet) quarantines nothing, while the current leader's quarantine
 * lands with its reason.
 */
import assert from "node:assert/strict";
import { FencedError } from "../src/core/errors.ts";
import { silentLogger } from "../src/core/logger.ts";
import { type QuarantineCarry, quarantineStep } from "../src/leader/process/quarantine_step.ts";
import type { PoisonDetector } from "../src/plan/mod.ts";
import { NamespaceCache } from "../src/state/namespace_cache.ts";
import { createEtcdClient, EtcdStore } from "../src/store/etcd/mod.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { claim } from "./support/store_contract.ts";

/** A detector that finds shard "3" poisonous at every pass. */
function findsShard3(): QuarantineCarry {
  const detector = {
    observe: () => ({ quarantine: [{ shardKey: "3", executors: ["e1", "e2", "e3"] }] }),
    forget: () => {},
    failedWith: () => new Map(),
  } as unknown as PoisonDetector;
  return { detector };
}

Deno.test("a deposed leader's pass quarantines nothing; the current leader's does", async () => {
  await using etcd = await startEtcd();
  const store = new EtcdStore(
    createEtcdClient({ endpoints: etcd.endpoints, dialTimeoutMs: 5_000 }),
    uniquePrefix("quarantine-fence"),
  );
  const stop = new AbortController();
  try {
    const deposed = await store.claimLeadership("ns", claim(1, "sm-1"));
    const cache = new NamespaceCache(store, "ns", { heartbeatTtlMs: 2_000, logger: silentLogger });
    await cache.start(stop.signal);
    // A newer term holds the namespace; the old leader's pass runs before it notices.
    const current = await store.claimLeadership("ns", claim(2, "sm-2"));
    const context = { cache, store, logger: silentLogger, nowMs: Date.now() };
    await assert.rejects(
      quarantineStep(findsShard3(), { ...context, fence: deposed }, 0, stop.signal),
      FencedError,
    );
    assert.equal((await store.loadNamespace("ns")).drained.size, 0, "nothing quarantined");

    assert.equal(
      await quarantineStep(findsShard3(), { ...context, fence: current }, 0, stop.signal),
      1,
    );
    const snapshot = await store.loadNamespace("ns");
    assert.deepEqual([...snapshot.drainReasons ?? []], [["3", "quarantined"]]);
    assert.ok(cache.state.isDrained("3"), "the picture shows it before the pass plans");
  } finally {
    stop.abort();
    await store.close();
  }
});
