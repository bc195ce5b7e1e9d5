/**
 * The etcd change feed under a slow reader: the watch pauses at its buffer
 * bound and resumes from the next revision, so memory stays bounded and every
 * revision arrives once, in order; compaction while paused ends it with
 * `resync`. Against a real etcd.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { Etcd3 } from "etcd3";
import { NamespaceKeys } from "../src/store/etcd/keys.ts";
import { watchNamespace } from "../src/store/etcd/watch_namespace.ts";
import type { NamespaceEventBatch } from "../src/store/store.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";

const LIMIT = 32 * 1024;
const PAD = "x".repeat(2_000); // each revision: one ~2 KB metadata put

async function revisionNow(client: Etcd3): Promise<number> {
  const res = await client.kv.range({ key: Buffer.from("\0") });
  return Number(res.header.revision);
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function putExecutors(client: Etcd3, keys: NamespaceKeys, from: number, count: number) {
  for (let i = from; i < from + count; i++) {
    await client.put(keys.executor(`e${i}`, "metadata")).value(
      JSON.stringify({ i: String(i), PAD }),
    );
  }
}

function flowRecorder() {
  const flow = { paused: 0, resumed: 0, maxBuffered: 0 };
  const onFlow = (event: "paused" | "resumed", bytes: number) => {
    flow[event]++;
    flow.maxBuffered = Math.max(flow.maxBuffered, bytes);
  };
  return { flow, onFlow };
}

/** Executor ids of metadata events, in the order delivered. */
function executorsOf(batches: readonly NamespaceEventBatch[]): string[] {
  return batches.flatMap((b) =>
    b.events.flatMap((e) => e.type === "metadata" ? [e.executorId] : [])
  );
}

Deno.test("etcd watch pauses for a slow reader, keeps its buffer bounded, and loses or reorders nothing", async () => {
  await using etcd = await startEtcd();
  const client = new Etcd3({ hosts: etcd.endpoints });
  const stop = new AbortController();
  try {
    const keys = new NamespaceKeys(uniquePrefix("watch backpressure"), "ns");
    const after = await revisionNow(client);
    const { flow, onFlow } = flowRecorder();
    const stream = watchNamespace(client, keys, after, stop.signal, {
      highWaterMarkBytes: LIMIT,
      onFlow,
    });
    const reader = stream.getReader();
    await putExecutors(client, keys, 0, 150); // ~300 KB while nobody reads
    await until(() => flow.paused === 1, "the watch to pause");
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(flow.paused, 1, "paused once, and stays paused while nobody reads");
    assert.ok(flow.maxBuffered <= LIMIT + 2_200, `buffered ${flow.maxBuffered} bytes`);

    const batches: NamespaceEventBatch[] = [];
    const writing = putExecutors(client, keys, 150, 50); // more history while it catches up
    while (executorsOf(batches).length < 200) {
      const { done, value } = await reader.read();
      assert.ok(!done, "the feed ended early");
      assert.notEqual(value.events[0]?.type, "resync", "no resync without compaction");
      batches.push(value);
      await new Promise((resolve) => setTimeout(resolve, 1)); // a slow reader
    }
    await writing;
    assert.deepEqual(executorsOf(batches), Array.from({ length: 200 }, (_, i) => `e${i}`));
    const revisions = batches.map((b) => b.revision);
    assert.deepEqual(revisions, Array.from({ length: 200 }, (_, i) => after + 1 + i), "each once");
    assert.ok(flow.resumed >= 1 && flow.paused >= flow.resumed, JSON.stringify(flow));
    assert.ok(flow.maxBuffered <= LIMIT + 2_200, `buffered ${flow.maxBuffered} bytes`);
  } finally {
    stop.abort();
    client.close();
  }
});

Deno.test("etcd watch paused past a compaction ends with resync after what it delivered", async () => {
  await using etcd = await startEtcd();
  const client = new Etcd3({ hosts: etcd.endpoints });
  const stop = new AbortController();
  try {
    const keys = new NamespaceKeys(uniquePrefix("watch compaction"), "ns");
    const after = await revisionNow(client);
    const { flow, onFlow } = flowRecorder();
    const reader = watchNamespace(client, keys, after, stop.signal, {
      highWaterMarkBytes: LIMIT,
      onFlow,
    }).getReader();
    await putExecutors(client, keys, 0, 60);
    await until(() => flow.paused === 1, "the watch to pause");
    await client.kv.compact({ revision: String(await revisionNow(client)), physical: true });
    const batches: NamespaceEventBatch[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      batches.push(value);
    }
    const last = batches.pop();
    // etcd refuses a watch from a compacted revision (etcd3 reports "Watcher canceled").
    assert.equal(last?.events[0]?.type, "resync", JSON.stringify(last));
    const delivered = executorsOf(batches);
    assert.ok(delivered.length > 0 && delivered.length < 60, `${delivered.length} delivered`);
    assert.deepEqual(delivered, Array.from({ length: delivered.length }, (_, i) => `e${i}`));
  } finally {
    stop.abort();
    client.close();
  }
});
