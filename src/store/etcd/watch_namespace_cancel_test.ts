import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { Etcd3 } from "etcd3";
import { NamespaceKeys } from "./keys.ts";
import { watchNamespace } from "./watch_namespace.ts";

/** A watcher that etcd3 would drive. */
class FakeWatcher extends EventEmitter {
  cancel(): Promise<void> {
    return Promise.resolve();
  }
}

function clientWatching(watcher: FakeWatcher): Etcd3 {
  const builder = { prefix: () => builder, startRevision: () => builder, watcher: () => watcher };
  return { watch: () => builder } as unknown as Etcd3;
}

// The soak found it: an instance exited 1 when a namespace was deleted as an etcd member was killed.
// The watch failed (its resync and close were queued behind the batches being decoded) and the
// reader cancelled the stream before they ran; enqueue and close then threw on the cancelled
// stream, a rejection nobody handled. Deno's test runner fails a test that leaves one.
Deno.test("a namespace watch whose reader cancels it while its failure is queued rejects nothing", async () => {
  const watcher = new FakeWatcher();
  const stop = new AbortController();
  const stream = watchNamespace(
    clientWatching(watcher),
    new NamespaceKeys("p", "ns"),
    1,
    stop.signal,
  );
  const reader = stream.getReader();
  watcher.emit("error", new Error("Watcher canceled: etcdserver: no leader")); // resync queued
  await reader.cancel(); // before the queued step runs
  await new Promise((resolve) => setTimeout(resolve, 20));
  stop.abort();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(await reader.closed, undefined, "the cancelled stream is closed, nothing thrown");
});
