import assert from "node:assert/strict";
import { silentLogger } from "../core/logger.ts";
import { NamespaceCache } from "../state/namespace_cache.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { NamespaceEvent, Store } from "../store/store.ts";
import { WatchFanout } from "./watch_fanout.ts";

const unusedStore = new Proxy({} as Store, {
  get: (_, name) => () => {
    throw new Error(`Unexpected store call: ${String(name)}`);
  },
});

/** The writable picture behind each cache built here (the cache itself only shows it). */
const states = new WeakMap<NamespaceCache, NamespaceState>();
function stateOf(cache: NamespaceCache): NamespaceState {
  return states.get(cache)!;
}

function cacheWith(owners: [string, string][]): NamespaceCache {
  const options = { heartbeatTtlMs: 1_000, logger: silentLogger };
  const state = new NamespaceState("ns", options);
  const cache = new NamespaceCache(unusedStore, "ns", { ...options, state });
  states.set(cache, state);
  const stored = (id: string) => ({
    executorId: id,
    heartbeat: { status: "ACTIVE" as const, timestampMs: Date.now() },
    heartbeatRevision: 1,
    metadata: { addr: id },
    reports: new Map(),
  });
  state.load(
    {
      revision: 5,
      executors: new Map([["b", stored("b")], ["a", stored("a")]]),
      assignmentSeq: 1,
      owners: new Map(owners),
      assignedRevisions: new Map(),
      assignmentTimes: new Map(),
      drained: new Set(),
      executorDrains: new Map(),
      requested: new Map(),
    },
    0,
    Date.now(),
  );
  cache.views.bump();
  return cache;
}

/** Moves `shard` to `owner` and tells watchers, as the cache does for a feed batch. */
function assign(cache: NamespaceCache, shard: string, owner: string): void {
  const event: NamespaceEvent = {
    type: "assignment",
    seq: cache.state.seq + 1,
    delta: { assign: { [owner]: [shard] }, unassign: [], remove: [] },
  };
  stateOf(cache).apply({ revision: cache.state.revision + 1, events: [event] }, 0);
  cache.views.bump();
}

Deno.test("watch fanout pictures executors sorted by id with shards in key order", () => {
  const fanout = new WatchFanout(cacheWith([["10", "a"], ["9", "a"], ["x", "a"], ["1", "b"]]));
  assert.deepEqual(fanout.current(), {
    kind: "snapshot",
    version: 1,
    revision: 5,
    executors: [
      { executorId: "a", metadata: { addr: "a" }, shards: ["9", "10", "x"] },
      { executorId: "b", metadata: { addr: "b" }, shards: ["1"] },
    ],
  });
});

Deno.test("watch fanout builds the picture once per version", () => {
  const cache = cacheWith([["0", "a"]]);
  const fanout = new WatchFanout(cache);
  const first = fanout.current();
  assert.equal(fanout.current(), first, "the same object while the version holds");
  assign(cache, "1", "b");
  const second = fanout.current();
  assert.notEqual(second, first);
  assert.equal(second.version, first.version + 1);
  assert.deepEqual(second.executors[1]?.shards, ["1"]);
});

Deno.test("watch fanout gives a subscriber the current picture first, then each change", async () => {
  const cache = cacheWith([["0", "a"]]);
  const fanout = new WatchFanout(cache);
  const controller = new AbortController();
  const reader = fanout.subscribe(controller.signal).getReader();
  const first = await reader.read();
  assert.equal(first.value, fanout.current());
  const next = reader.read();
  assign(cache, "1", "a");
  assert.deepEqual((await next).value?.executors[0]?.shards, ["0", "1"]);
  controller.abort();
  assert.deepEqual(await reader.read(), { done: true, value: undefined });
});

Deno.test("watch fanout lets a slow subscriber skip to the latest version, sharing the picture", async () => {
  const cache = cacheWith([]);
  const fanout = new WatchFanout(cache);
  const controller = new AbortController();
  const fast = fanout.subscribe(controller.signal).getReader();
  const slow = fanout.subscribe(controller.signal).getReader();
  await fast.read();
  await slow.read();
  for (const shard of ["0", "1", "2"]) {
    assign(cache, shard, "b");
    await fast.read();
  }
  const caughtUp = await slow.read();
  assert.equal(caughtUp.value?.version, cache.views.version, "the latest version, not the next");
  assert.deepEqual(caughtUp.value?.executors[1]?.shards, ["0", "1", "2"]);
  assert.equal(caughtUp.value, fanout.current(), "both subscribers share one built picture");
  let more = false;
  slow.read().then(() => more = true);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(more, false, "nothing queued behind the latest picture");
  controller.abort();
});

Deno.test("delta subscribers get the picture once, then only what changed", async () => {
  const cache = cacheWith([["0", "a"], ["1", "a"]]);
  const fanout = new WatchFanout(cache);
  const abort = new AbortController();
  const reader = fanout.subscribeDeltas(abort.signal).getReader();
  const first = await reader.read();
  assert.equal(first.value?.kind, "snapshot");
  assign(cache, "1", "b");
  assign(cache, "2", "b");
  const delta = await reader.read();
  assert.deepEqual(delta.value, {
    kind: "delta",
    fromRevision: 5,
    revision: 7,
    executors: [],
    owners: [{ shard: "1", owner: "b" }, { shard: "2", owner: "b" }],
    removedExecutors: [],
  });
  assert.equal(fanout.deltaSince(5), delta.value, "shared by subscribers at the same point");
  stateOf(cache).apply({
    revision: 8,
    events: [{ type: "metadata", executorId: "c", metadata: { addr: "c" } }],
  }, 0);
  cache.views.bump();
  const joined = await reader.read();
  assert.deepEqual(joined.value?.kind === "delta" && joined.value.executors, [
    { executorId: "c", metadata: { addr: "c" } },
  ]);
  // A reload forgets the log: a subscriber that far behind gets a whole picture.
  assert.equal(fanout.deltaSince(3), undefined);
  abort.abort();
  assert.equal((await reader.read()).done, true);
});

Deno.test("watch fanout lists a replicated shard under its primary, with ranks elsewhere", () => {
  const cache = cacheWith([]);
  stateOf(cache).apply({
    revision: 6,
    events: [{
      type: "assignment",
      seq: 2,
      delta: {
        assign: { b: ["0"], a: ["1"] },
        unassign: [],
        remove: [],
        sets: { "0": ["b", "a"] },
      },
    }],
  }, 0);
  cache.views.bump();
  const fanout = new WatchFanout(cache);
  assert.deepEqual(fanout.current().executors, [
    {
      executorId: "a",
      metadata: { addr: "a" },
      shards: ["1"],
      replicaShards: [{ shard: "0", rank: 1 }],
    },
    { executorId: "b", metadata: { addr: "b" }, shards: ["0"], replicaShards: [] },
  ]);
  assert.deepEqual(fanout.deltaSince(5)?.owners, [
    { shard: "0", owner: "b", owners: ["b", "a"] },
    { shard: "1", owner: "a" },
  ]);
});

Deno.test("the fan-out counts its open subscribers until they cancel or their signal aborts", async () => {
  const fanout = new WatchFanout(cacheWith([["0", "a"]]));
  const first = new AbortController();
  const second = new AbortController();
  const a = fanout.subscribe(first.signal);
  const b = fanout.subscribeDeltas(second.signal);
  assert.equal(fanout.subscribers, 2);
  const reader = a.getReader();
  await reader.read();
  await reader.cancel();
  assert.equal(fanout.subscribers, 1);
  second.abort();
  await b.cancel(); // a second ending of the same stream is not counted twice
  assert.equal(fanout.subscribers, 0);
  first.abort();
});
