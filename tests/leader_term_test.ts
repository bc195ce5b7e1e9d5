/**
 * A leader term against the embedded store: moves committed as the term ends
 * are still counted (issue 37), and how a term ends is marked and told.
 */
import assert from "node:assert/strict";
import type { NamespaceConfig } from "../src/config/mod.ts";
import { silentLogger } from "../src/core/logger.ts";
import type { HistoryNote } from "../src/leader/process/history_notes.ts";
import { policyOf } from "../src/policy/_testing.ts";
import { NamespaceCache } from "../src/state/namespace_cache.ts";
import { EmbeddedStore } from "../src/store/embedded/embedded_store.ts";
import type { Leadership } from "../src/store/leader_store.ts";
import type { Store } from "../src/store/store.ts";
import { type PassInfo, runLeaderTerm } from "../src/leader/process/leader_term.ts";

const NS: NamespaceConfig = {
  kind: "fixed",
  name: "ns",
  shardNum: 4,
  loadBalancer: "naive",
  ownership: { mode: "available" },
  // Placed as soon as the term starts: the first-deploy wait is tested in src/plan.
  coldStartWaitMs: 0,
};

async function withStore(fn: (store: EmbeddedStore) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "sm-leader-term-" });
  const store = await EmbeddedStore.open(dir);
  try {
    await fn(store);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

function leadership(term: number, controller = new AbortController()): Leadership {
  return { namespace: "ns", term, signal: controller.signal, resign: () => Promise.resolve() };
}

/** Runs one term of `store` until `until` says stop; returns what it reported. */
async function term(
  store: Store,
  lead: Leadership,
  stop: AbortController,
  until: (seen: { passes: PassInfo[]; notes: HistoryNote[] }) => boolean,
  followed: Store = store,
) {
  const cache = new NamespaceCache(followed, "ns", {
    heartbeatTtlMs: 60_000,
    logger: silentLogger,
  });
  const following = new AbortController();
  const started = cache.start(following.signal);
  await cache.waitUntil(() => cache.synced);
  const seen = { passes: [] as PassInfo[], notes: [] as HistoryNote[] };
  const running = runLeaderTerm(lead, AbortSignal.any([lead.signal, stop.signal]), {
    instanceId: `i-${lead.term}`,
    cache,
    store,
    policy: policyOf(NS),
    logger: silentLogger,
    history: (note) => seen.notes.push(note),
    onPass: (pass) => {
      seen.passes.push(pass);
      if (until(seen)) stop.abort(new Error("leader period over"));
    },
  });
  await running;
  following.abort();
  await started.catch(() => {});
  return seen;
}

Deno.test("leader term: moves committed as the term ends are still reported", async () => {
  await withStore(async (real) => {
    await real.writeExecutors("ns", [
      { executorId: "e1", heartbeat: { status: "ACTIVE", timestampMs: Date.now() } },
    ]);
    const stop = new AbortController();
    // The commit lands, then the term ends before the leader saw it applied: as when a commit
    // that waited out a store stall lands while leadership is lost.
    const store = new Proxy(real, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== "commitAssignment") {
          return typeof value === "function" ? value.bind(target) : value;
        }
        return async (...args: Parameters<Store["commitAssignment"]>) => {
          const revision = await target.commitAssignment(...args);
          stop.abort(new Error("lease lost"));
          return revision;
        };
      },
    }) as Store;
    // The cache follows the store 100 ms late (a watch that lags, as etcd's after a stall).
    const lagging = new Proxy(real, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== "watchNamespace") {
          return typeof value === "function" ? value.bind(target) : value;
        }
        return (...args: Parameters<Store["watchNamespace"]>) =>
          target.watchNamespace(...args).pipeThrough(
            new TransformStream({
              transform: async (batch, controller) => {
                await new Promise((resolve) => setTimeout(resolve, 100));
                controller.enqueue(batch);
              },
            }),
          );
      },
    }) as Store;
    const seen = await term(store, leadership(1), stop, () => false, lagging);
    const changed = seen.passes.filter((p) => p.changed);
    assert.equal(changed.length, 1, "the committed pass is reported");
    assert.equal(changed[0]!.reasons?.placement, 4);
  });
});

Deno.test("leader term: a handover is marked in the claim and told by the next leader; a routine one is only counted", async () => {
  await withStore(async (store) => {
    await store.writeExecutors("ns", [
      { executorId: "e1", heartbeat: { status: "ACTIVE", timestampMs: Date.now() } },
    ]);
    const first = await term(
      store,
      leadership(1),
      new AbortController(),
      (s) => s.passes.length > 0,
    );
    const took = first.notes.find((n) => n.type === "leader_changed");
    assert.equal(took?.reason, undefined, "the first leader replaces no claim");
    const claim = (await store.loadNamespace("ns")).leader?.claim;
    assert.deepEqual(claim?.ended && { reason: claim.ended.reason, routine: claim.ended.routine }, {
      reason: "leader period over",
      routine: true,
    });
    const second = await term(
      store,
      leadership(2),
      new AbortController(),
      (s) => s.passes.length > 0,
    );
    assert.equal(
      second.notes.filter((n) => n.type === "leader_changed").length,
      0,
      "routine: counted",
    );

    // A term whose lease is lost is told by the leader itself, and the claim stays unmarked.
    const lease = new AbortController();
    const third = await term(store, leadership(3, lease), new AbortController(), (s) => {
      if (s.passes.length > 0) lease.abort(new Error("lease expired"));
      return false;
    });
    assert.equal(third.notes.find((n) => n.type === "leader_lost")?.reason, "lease_expired");
    const fourth = await term(
      store,
      leadership(4),
      new AbortController(),
      (s) => s.passes.length > 0,
    );
    assert.equal(
      fourth.notes.find((n) => n.type === "leader_changed")?.reason,
      "not_handed_over",
    );
  });
});
