import assert from "node:assert/strict";
import type { NamespaceConfig } from "../config/mod.ts";
import {
  ExecutorNotFoundError,
  NoOwnerError,
  ShardDrainedError,
  ShardNotFoundError,
} from "../core/errors.ts";
import { silentLogger } from "../core/logger.ts";
import { NamespaceCache } from "../state/namespace_cache.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import { putExecutorDrain } from "../state/_testing.ts";
import type { Store, StoredExecutor } from "../store/store.ts";
import { policyOf } from "../policy/_testing.ts";
import { isFixedShard, type RoutedNamespace } from "./routed_namespace.ts";
import { compareShardKeys, getShardOwner } from "./routing.ts";
import { executorState, inspectShard, namespaceState } from "./inspection.ts";
import { ShardRequester } from "./shard_requester.ts";

const WALL = 1_700_000_000_000;

/** A store that fails the test if routing touches it, except for `requestShards`. */
function fakeStore(requested: string[][] = []): Store {
  return new Proxy({} as Store, {
    get: (_, name) =>
      name === "requestShards"
        ? (_ns: string, keys: string[]) => (requested.push(keys), Promise.resolve(1))
        : () => {
          throw new Error(`Unexpected store call: ${String(name)}`);
        },
  });
}

function executor(id: string, timestampMs = WALL): StoredExecutor {
  return {
    executorId: id,
    heartbeat: { status: "ACTIVE", timestampMs },
    heartbeatRevision: 2,
    metadata: { addr: `${id}:7000` },
    reports: new Map(),
  };
}

/** The writable picture behind each cache built here (the cache itself only shows it). */
const states = new WeakMap<NamespaceCache, NamespaceState>();
function stateOf(cache: NamespaceCache): NamespaceState {
  return states.get(cache)!;
}

/** A runtime whose cache holds a hand-built picture, loaded at monotonic time 0. */
function runtime(config: NamespaceConfig, requested: string[][] = []): RoutedNamespace {
  const store = fakeStore(requested);
  const options = { heartbeatTtlMs: 1_000, logger: silentLogger };
  const state = new NamespaceState(config.name, options);
  const cache = new NamespaceCache(store, config.name, { ...options, state });
  states.set(cache, state);
  state.load(
    {
      revision: 50,
      executors: new Map([["b", executor("b")], ["a", executor("a")]]),
      assignmentSeq: 3,
      owners: new Map([["10", "a"], ["2", "a"], ["1", "b"], ["9", "b"]]),
      assignedRevisions: new Map([["10", 41], ["2", 42], ["1", 43]]),
      assignmentTimes: new Map([[41, 1_700_000_000_000]]),
      drained: new Set(["3"]),
      executorDrains: new Map(),
      requested: new Map([["asked", 48]]),
    },
    0,
    WALL,
  );
  return { policy: policyOf(config), cache, requester: new ShardRequester(store, config.name) };
}

const fixed: NamespaceConfig = {
  kind: "fixed",
  name: "fx",
  shardNum: 12,
  loadBalancer: "naive",
  ownership: { mode: "available" },
};
const ephemeral: NamespaceConfig = {
  kind: "ephemeral",
  name: "eph",
  loadBalancer: "greedy",
  ownership: { mode: "available" },
};

Deno.test("isFixedShard accepts only canonical decimals below the shard count", () => {
  for (const key of ["0", "1", "9", "11"]) assert.equal(isFixedShard(key, 12), true, key);
  for (const key of ["12", "01", "-1", "1.0", " 1", "1e1", "0x1", "", "a", "100"]) {
    assert.equal(isFixedShard(key, 12), false, JSON.stringify(key));
  }
  assert.equal(isFixedShard("0", 0), false);
});

Deno.test("compareShardKeys orders decimal keys numerically, before other keys in lexical order", () => {
  assert.deepEqual(["10", "b", "9", "a", "2", "0"].sort(compareShardKeys), [
    "0",
    "2",
    "9",
    "10",
    "a",
    "b",
  ]);
  assert.equal(compareShardKeys("7", "7"), 0);
  const huge = ["100000000000000000001", "100000000000000000000"];
  assert.deepEqual(huge.toSorted(compareShardKeys), huge.toReversed(), "beyond 2^53 too");
});

Deno.test("compareShardKeys is a consistent order on mixed keys", () => {
  const keys = ["2", "10", "1a", "9", "a", "", " ", "01", "-1", "1e3", "99999999999999999999"];
  for (const a of keys) {
    for (const b of keys) {
      assert.equal(Math.sign(compareShardKeys(a, b)), -Math.sign(compareShardKeys(b, a)) || 0);
      if (a !== b) assert.notEqual(compareShardKeys(a, b), 0, `${a} vs ${b}`);
      for (const c of keys) {
        if (compareShardKeys(a, b) < 0 && compareShardKeys(b, c) < 0) {
          assert.ok(compareShardKeys(a, c) < 0, `${a} < ${b} < ${c} but not ${a} < ${c}`);
        }
      }
    }
  }
});

Deno.test("inspect shard names the owner and its metadata", () => {
  const rt = runtime(fixed);
  assert.deepEqual(inspectShard(rt, "10"), {
    namespace: "fx",
    owner: "a",
    metadata: { addr: "a:7000" },
    owners: [{ executorId: "a", metadata: { addr: "a:7000" } }],
    load: 0,
    assignedRevision: 41,
    assignedAtMs: 1_700_000_000_000,
  });
});

Deno.test("inspect shard refuses shards outside a fixed namespace, drained or unowned shards", () => {
  const rt = runtime(fixed);
  assert.throws(() => inspectShard(rt, "12"), ShardNotFoundError);
  assert.throws(() => inspectShard(rt, "02"), ShardNotFoundError);
  assert.throws(() => inspectShard(rt, "3"), ShardDrainedError);
  assert.throws(() => inspectShard(rt, "4"), NoOwnerError);
});

Deno.test("inspect shard of an ephemeral namespace tells unknown keys from waiting ones", () => {
  const rt = runtime(ephemeral);
  assert.throws(() => inspectShard(rt, "never-asked"), ShardNotFoundError);
  assert.throws(() => inspectShard(rt, "asked"), NoOwnerError);
  assert.equal(inspectShard(rt, "2").owner, "a");
});

Deno.test("executor state lists the executor's shards in key order with their revisions", () => {
  const { cache } = runtime(fixed);
  const time = { now: 250, wallNow: WALL + 250 };
  assert.deepEqual(executorState(cache.state, "a", time), {
    executorId: "a",
    status: "ACTIVE",
    lastHeartbeatMs: WALL,
    metadata: { addr: "a:7000" },
    assignedShards: [
      { shardKey: "2", assignedRevision: 42, load: 0 },
      { shardKey: "10", assignedRevision: 41, load: 0, assignedAtMs: 1_700_000_000_000 },
    ],
    drainedBy: [],
    heartbeatAgeMs: 250,
    alive: true,
    liveness: "alive",
    totalLoad: 0,
  });
  assert.throws(() => executorState(cache.state, "zz", time), ExecutorNotFoundError);
  putExecutorDrain(stateOf(cache), {
    id: "selector:addr=a:7000",
    selector: { addr: "a:7000" },
    reason: "",
    createdAtMs: 0,
  });
  assert.deepEqual(executorState(cache.state, "a", time).drainedBy, ["selector:addr=a:7000"]);
  assert.deepEqual(executorState(cache.state, "b", time).drainedBy, []);
  const late = executorState(cache.state, "a", { now: 5_000, wallNow: WALL + 5_000 });
  assert.deepEqual([late.alive, late.heartbeatAgeMs], [false, 5_000]);
});

Deno.test("namespace state lists every executor sorted by id", () => {
  const { cache } = runtime(fixed);
  const views = namespaceState(cache.state, { now: 0, wallNow: WALL });
  assert.deepEqual(views.map((v) => v.executorId), ["a", "b"]);
  assert.deepEqual(views[1]?.assignedShards.map((s) => s.shardKey), ["1", "9"]);
  assert.equal(views[1]?.assignedShards[1]?.assignedRevision, 50, "snapshot revision by default");
});

Deno.test("get shard owner refuses an unowned fixed shard and waits for nothing", async () => {
  const rt = runtime(fixed);
  assert.equal((await getShardOwner(rt, "1", 0)).owner, "b");
  await assert.rejects(getShardOwner(rt, "5", 0), NoOwnerError);
  await assert.rejects(getShardOwner(rt, "3", 0), ShardDrainedError);
});

Deno.test("get shard owner of a new ephemeral key requests it and waits for the leader to place it", async () => {
  const requested: string[][] = [];
  const rt = runtime(ephemeral, requested);
  await assert.rejects(getShardOwner(rt, "late", 5_000), NoOwnerError, "no live executor");
  assert.deepEqual(requested, []);
  const owner = getShardOwner(rt, "new-key", 10);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(requested, [["new-key"]]);
  stateOf(rt.cache).apply({
    revision: 51,
    events: [{
      type: "assignment",
      seq: 4,
      delta: { assign: { b: ["new-key"] }, unassign: [], remove: [] },
    }],
  }, 10);
  rt.cache.applied.bump();
  assert.deepEqual(await owner, {
    namespace: "eph",
    owner: "b",
    metadata: { addr: "b:7000" },
    owners: [{ executorId: "b", metadata: { addr: "b:7000" } }],
  });
});
