import assert from "node:assert/strict";
import type { Store } from "../store/store.ts";
import { ShardRequester } from "./shard_requester.ts";

/** A store whose `requestShards` records its calls and can be held or failed; nothing else is expected. */
function fakeStore() {
  const calls: { namespace: string; keys: readonly string[] }[] = [];
  let gate: PromiseWithResolvers<number> | undefined;
  let called = Promise.withResolvers<void>();
  const store = new Proxy({} as Store, {
    get: (_, name) =>
      name === "requestShards"
        ? (namespace: string, keys: readonly string[]) => {
          calls.push({ namespace, keys });
          called.resolve();
          return gate ? gate.promise : Promise.resolve(calls.length);
        }
        : () => {
          throw new Error(`Unexpected store call: ${String(name)}`);
        },
  });
  return {
    store,
    calls,
    /** Holds the next writes until the returned resolvers settle them. */
    hold: () => gate = Promise.withResolvers<number>(),
    /** Lets writes answer at once again. */
    release: () => void (gate = undefined),
    /** Resolves at the next write (or at once if one came since the last call). */
    nextWrite: () => called.promise.then(() => void (called = Promise.withResolvers<void>())),
  };
}

Deno.test("shard requester coalesces concurrent requests for many keys into one store write", async () => {
  const { store, calls } = fakeStore();
  const requester = new ShardRequester(store, "eph");
  const keys = Array.from({ length: 50 }, (_, i) => `k${i}`);
  await Promise.all(keys.map((key) => requester.request(key)));
  assert.equal(calls.length, 1);
  assert.equal(calls[0]?.namespace, "eph");
  assert.deepEqual(calls[0]?.keys, keys);
});

Deno.test("shard requester asks for a key once however many callers want it", async () => {
  const { store, calls } = fakeStore();
  const requester = new ShardRequester(store, "eph");
  const first = requester.request("same");
  assert.equal(requester.request("same"), first, "callers share one promise");
  await first;
  assert.deepEqual(calls.map((c) => c.keys), [["same"]]);
});

Deno.test("shard requester batches requests made during a write into the next write", async () => {
  const { store, calls, hold, nextWrite } = fakeStore();
  const gate = hold();
  const requester = new ShardRequester(store, "eph");
  const a = requester.request("a");
  await nextWrite();
  assert.deepEqual(calls.map((c) => c.keys), [["a"]]);
  const later = [requester.request("b"), requester.request("c")];
  assert.equal(calls.length, 1, "no second write while the first is in flight");
  gate.resolve(7);
  await Promise.all([a, ...later]);
  assert.deepEqual(calls.map((c) => c.keys), [["a"], ["b", "c"]]);
  await requester.request("d");
  assert.equal(calls.length, 3, "a later request starts a new write");
});

Deno.test("shard requester rejects every caller of a failed write and recovers", async () => {
  const { store, calls, hold, release } = fakeStore();
  const gate = hold();
  const requester = new ShardRequester(store, "eph");
  const failing = [requester.request("x"), requester.request("y")];
  const boom = new Error("etcd down");
  gate.reject(boom);
  for (const p of failing) await assert.rejects(p, (error) => error === boom);
  assert.equal(calls.length, 1);
  release();
  await requester.request("x");
  assert.deepEqual(calls.map((c) => c.keys), [["x", "y"], ["x"]], "a retry writes again");
});

Deno.test("shard requester counts keys as outstanding from the ask until the cache shows them", async () => {
  const { store, hold } = fakeStore();
  let now = 0;
  const requester = new ShardRequester(store, "eph", { now: () => now });
  const known = new Set<string>();
  const gate = hold();
  const asked = [requester.request("a"), requester.request("b")];
  assert.equal(requester.outstanding((k) => known.has(k)), 2, "pending");
  await Promise.resolve();
  await Promise.resolve();
  assert.ok(requester.has("a"));
  assert.equal(requester.outstanding((k) => known.has(k)), 2, "being written");
  gate.resolve(1);
  await Promise.all(asked);
  assert.equal(requester.has("a"), false);
  assert.equal(requester.outstanding((k) => known.has(k)), 2, "written, not yet seen");
  known.add("a");
  assert.equal(requester.outstanding((k) => known.has(k)), 1, "a is in the cache");
  requester.settled("b");
  assert.equal(requester.outstanding((k) => known.has(k)), 0, "b was answered");
  await requester.request("c");
  now += 31_000;
  assert.equal(requester.outstanding(() => false), 0, "a key never seen stops counting");
});
