import assert from "node:assert/strict";
import type { Leadership } from "../src/store/leader_store.ts";
import { createEtcdClient, EtcdLeaderStore } from "../src/store/etcd/mod.ts";
import { etcdForFile, uniquePrefix } from "./support/etcd.ts";

// One etcd for the file, started before its first test and stopped after its last;
// each test has its own prefix.
const etcd = etcdForFile();
const connect = (endpoints = etcd.endpoints) =>
  createEtcdClient({ endpoints, dialTimeoutMs: 1_000 });
const TTL_MS = 2_000;

/** Leader stores under one prefix, plus a raw client; all closed by `close()`. */
function fixture(name: string) {
  const prefix = uniquePrefix(name);
  const stores: EtcdLeaderStore[] = [];
  const raw = connect();
  const abort = new AbortController();
  const leaderships: Leadership[] = [];
  return {
    raw,
    store(endpoints = etcd.endpoints) {
      const store = new EtcdLeaderStore(connect(endpoints), prefix);
      stores.push(store);
      return store;
    },
    async campaign(store: EtcdLeaderStore, ns: string, id: string, signal = abort.signal) {
      const leadership = await store.campaign(ns, id, { ttlMs: TTL_MS, signal });
      leaderships.push(leadership);
      return leadership;
    },
    electionKeys: (ns: string) => raw.getAll().prefix(`${prefix}/ns/${ns}/election/`).keys(),
    async close() {
      abort.abort();
      await Promise.all(leaderships.map((l) => l.resign()));
      await Promise.all(stores.map((s) => s.close()));
      raw.close();
    },
  };
}

/** A TCP proxy to etcd whose connections can be cut: a client behind it loses its session. */
function proxy(target: string) {
  const url = new URL(/^[a-z]+:\/\//i.test(target) ? target : `http://${target}`);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const pipes: Promise<unknown>[] = [];
  const accepting = (async () => {
    for await (const conn of listener) {
      const upstream = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
      conns.push(conn, upstream);
      pipes.push(conn.readable.pipeTo(upstream.writable), upstream.readable.pipeTo(conn.writable));
    }
  })();
  return {
    endpoint: `127.0.0.1:${listener.addr.port}`,
    async cut() {
      for (const closer of [listener, ...conns]) {
        try {
          closer.close();
        } catch { /* already closed */ }
      }
      await Promise.allSettled([accepting, ...pipes]);
    },
  };
}

/** Whether `promise` is still pending after `ms`. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = Symbol("pending");
  const late = new Promise((resolve) => timer = setTimeout(() => resolve(pending), ms));
  const result = await Promise.race([promise.then(() => 0, () => 0), late]);
  clearTimeout(timer);
  return result === pending;
}

/** Resolves when `signal` aborts, or rejects after `ms`. */
function aborted(signal: AbortSignal, ms: number): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Signal not aborted within ${ms} ms`)), ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

Deno.test("etcd leader store: one leader at a time, the next one with a larger term", async () => {
  const f = fixture("leader one at a time");
  try {
    const [a, b] = [f.store(), f.store()];
    assert.equal(await a.leader("ns"), undefined);
    const first = await f.campaign(a, "ns", "a");
    assert.deepEqual([first.namespace, first.signal.aborted], ["ns", false]);
    assert.deepEqual(await b.leader("ns"), { instanceId: "a", term: first.term });
    const waiting = f.campaign(b, "ns", "b");
    assert.ok(await pendingAfter(waiting, 300), "the second candidate must wait");
    await first.resign();
    await first.resign();
    assert.equal(first.signal.aborted, true);
    const second = await waiting;
    assert.ok(second.term > first.term);
    assert.deepEqual(await a.leader("ns"), { instanceId: "b", term: second.term });
    await second.resign();
    assert.equal(await a.leader("ns"), undefined);
  } finally {
    await f.close();
  }
});

Deno.test("etcd leader store: an aborted campaign rejects and leaves no key", async () => {
  const f = fixture("leader abort");
  try {
    const [a, b] = [f.store(), f.store()];
    const first = await f.campaign(a, "ns", "a");
    const stop = new AbortController();
    const waiting = f.campaign(b, "ns", "b", stop.signal);
    assert.ok(await pendingAfter(waiting, 200));
    const reason = new Error("stop campaigning");
    stop.abort(reason);
    await assert.rejects(waiting, (error) => error === reason);
    assert.equal((await f.electionKeys("ns")).length, 1);
    await assert.rejects(f.campaign(b, "ns", "b", stop.signal), (error) => error === reason);
    assert.deepEqual(await b.leader("ns"), { instanceId: "a", term: first.term });
  } finally {
    await f.close();
  }
});

Deno.test("etcd leader store: leadership ends when its key is deleted or its lease revoked", async () => {
  const f = fixture("leader key deleted");
  try {
    const a = f.store();
    const first = await f.campaign(a, "ns", "a");
    const [key] = await f.electionKeys("ns");
    assert.ok(key !== undefined);
    await f.raw.delete().key(key);
    await aborted(first.signal, 2_000);
    const second = await f.campaign(f.store(), "ns", "b");
    assert.ok(second.term > first.term);
    assert.equal((await a.leader("ns"))?.instanceId, "b");
    // The key's last segment is the session's lease id, in hex.
    const [secondKey] = await f.electionKeys("ns");
    const lease = BigInt(`0x${secondKey?.slice(secondKey.lastIndexOf("/") + 1)}`);
    await f.raw.leaseClient.leaseRevoke({ ID: lease.toString() });
    await aborted(second.signal, 2_000);
    assert.equal(await a.leader("ns"), undefined);
  } finally {
    await f.close();
  }
});

Deno.test("etcd leader store: namespaces have independent elections", async () => {
  const f = fixture("leader namespaces");
  try {
    const [a, b] = [f.store(), f.store()];
    const [one, two] = await Promise.all([f.campaign(a, "one", "a"), f.campaign(b, "two", "b")]);
    assert.deepEqual([one.namespace, two.namespace], ["one", "two"]);
    assert.equal((await a.leader("one"))?.instanceId, "a");
    assert.equal((await a.leader("two"))?.instanceId, "b");
    await one.resign();
    assert.equal(await b.leader("one"), undefined);
    assert.equal(two.signal.aborted, false);
  } finally {
    await f.close();
  }
});

Deno.test("etcd leader store: a dead session hands over within the TTL", async () => {
  const f = fixture("leader session lost");
  const link = proxy(etcd.endpoints[0]!);
  try {
    const first = await f.campaign(f.store([link.endpoint]), "ns", "a");
    const waiting = f.campaign(f.store(), "ns", "b");
    assert.ok(await pendingAfter(waiting, 200));
    const cut = performance.now();
    await link.cut();
    const second = await waiting;
    const handover = performance.now() - cut;
    assert.ok(handover < TTL_MS + 1_500, `handover took ${Math.round(handover)} ms`);
    assert.ok(second.term > first.term);
    await aborted(first.signal, 2 * TTL_MS);
  } finally {
    await link.cut();
    await f.close();
  }
});
