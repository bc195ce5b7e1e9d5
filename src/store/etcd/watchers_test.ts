import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { Etcd3, Watcher } from "etcd3";
import { cancelWatcher } from "./watchers.ts";
import { EtcdFormat } from "./etcd_format.ts";

/** A watcher that etcd3 would drive: events, and a cancel that takes a moment. */
class FakeWatcher extends EventEmitter {
  cancelled = false;
  cancel(): Promise<void> {
    this.cancelled = true;
    return new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A client whose every watch is `watcher`. */
function clientWatching(watcher: FakeWatcher): Etcd3 {
  const builder = {
    key: () => builder,
    prefix: () => builder,
    startRevision: () => builder,
    watcher: () => watcher,
  };
  return { watch: () => builder } as unknown as Etcd3;
}

Deno.test("an error etcd3 emits on a watcher being cancelled does not end the process", async () => {
  const watcher = new FakeWatcher();
  const cancelling = cancelWatcher(watcher as unknown as Watcher);
  // Without a listener, EventEmitter throws ERR_UNHANDLED_ERROR from etcd3's stream handler.
  watcher.emit("error", new Error("Watcher canceled: etcdserver: no leader"));
  await cancelling;
  watcher.emit("error", new Error("a late one"));
  assert.ok(watcher.cancelled);
});

Deno.test("the format watch survives two errors in a row from one watcher and watches again", async () => {
  const watcher = new FakeWatcher();
  const format = new EtcdFormat(clientWatching(watcher), "p");
  const stop = new AbortController();
  const watching = format.watchUnreadable(stop.signal);
  await new Promise((resolve) => setTimeout(resolve, 5));
  watcher.emit("connected");
  await new Promise((resolve) => setTimeout(resolve, 5));
  // As etcd cancels the watch of a member that lost its leader (hasleader): more than one error.
  watcher.emit("error", new Error("Watcher canceled: etcdserver: no leader"));
  watcher.emit("error", new Error("Watcher canceled: etcdserver: no leader"));
  await new Promise((resolve) => setTimeout(resolve, 20));
  // etcd cancelled it and etcd3 forgot it: a cancel of ours would reach etcd as a stray.
  assert.ok(!watcher.cancelled, "a watcher etcd cancelled is not cancelled again");
  stop.abort();
  assert.equal(await watching, undefined);
});
