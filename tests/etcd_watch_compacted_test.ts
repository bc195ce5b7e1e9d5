/**
 * Watches whose start revision etcd has compacted away, against real etcd.
 * etcd cancels such a watch itself, and etcd3 forgets it as it reports the
 * error. Cancelling it again afterwards (what every watch of ours does when
 * it ends) used to send etcd a cancel request for a watch id etcd3 no longer
 * knew; etcd confirmed it, and etcd3 threw "Failed to find watcher for
 * IWatchResponse" from its stream handler, ending the process: every
 * instance of the soak exited 1 when an etcd member was killed after a
 * compaction (the watches reconnected from a compacted revision). Each test
 * here failed so before the fix.
 */
import assert from "node:assert/strict";
import type { Watcher } from "etcd3";
import { jsonLogger } from "../src/core/logger.ts";
import { createEtcdClient } from "../src/store/etcd/client.ts";
import { NamespaceKeys } from "../src/store/etcd/keys.ts";
import { watchNamespace } from "../src/store/etcd/watch_namespace.ts";
import { cancelWatcher, openWatcher } from "../src/store/etcd/watchers.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";

/** Long enough for etcd's answer to a second cancel to arrive (and, unguarded, to throw). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

async function compacted(name: string) {
  const etcd = await startEtcd();
  const warnings: string[] = [];
  const client = createEtcdClient(
    { endpoints: etcd.endpoints, dialTimeoutMs: 2_000 },
    jsonLogger("warn", {}, (line) => warnings.push(JSON.parse(line).msg)),
  );
  const keys = new NamespaceKeys(uniquePrefix(name), "ns");
  const first = await client.put(keys.executor("e0", "metadata")).value("{}");
  const later = await client.put(keys.executor("e1", "metadata")).value("{}");
  await client.kv.compact({ revision: later.header.revision, physical: true });
  // Another watch keeps etcd3's one stream open, as an instance's other watches do.
  const keeper = openWatcher(client.watch().key(keys.executor("other", "metadata")));
  await new Promise((resolve) => keeper.once("connected", resolve));
  const staleWatcher = (): Watcher =>
    openWatcher(
      client.watch().key(keys.executor("e0", "metadata")).startRevision(first.header.revision),
    );
  return {
    client,
    keys,
    warnings,
    from: Number(first.header.revision),
    staleWatcher,
    async [Symbol.asyncDispose]() {
      await cancelWatcher(keeper);
      client.close();
      await etcd[Symbol.asyncDispose]();
    },
  };
}

const canceled = (watcher: Watcher) =>
  new Promise<Error>((resolve) => watcher.once("error", resolve));

Deno.test("a watch etcd cancelled for compaction is not cancelled again", async () => {
  await using fx = await compacted("watch compacted");
  const watcher = fx.staleWatcher();
  assert.match((await canceled(watcher)).message, /canceled/);
  await cancelWatcher(watcher);
  await settle();
  assert.deepEqual(fx.warnings, [], "nothing stray: no second cancel was sent");
});

Deno.test("etcd's answer for a watch etcd3 already forgot is dropped and reported, not thrown", async () => {
  await using fx = await compacted("watch stray");
  const watcher = fx.staleWatcher();
  await canceled(watcher);
  // etcd3's own cancel, as when it races etcd's: etcd confirms a watch etcd3 no longer has.
  void watcher.cancel();
  await settle();
  assert.equal(fx.warnings.length, 1, fx.warnings.join("\n"));
  assert.match(fx.warnings[0]!, /no longer has \(a cancel confirmation\); the answer is dropped/);
  // The stream still serves: a new watch on the same client sees a write.
  const fresh = openWatcher(fx.client.watch().key(fx.keys.executor("e2", "metadata")));
  await new Promise((resolve) => fresh.once("connected", resolve));
  const seen = new Promise((resolve) => fresh.once("put", resolve));
  await fx.client.put(fx.keys.executor("e2", "metadata")).value("{}");
  await seen;
  await cancelWatcher(fresh);
});

Deno.test("the namespace feed from a compacted revision ends with one resync", async () => {
  await using fx = await compacted("feed compacted");
  const stop = new AbortController();
  const reasons: string[] = [];
  for await (const batch of watchNamespace(fx.client, fx.keys, fx.from - 1, stop.signal)) {
    for (const event of batch.events) if (event.type === "resync") reasons.push(event.reason);
  }
  assert.equal(reasons.length, 1);
  assert.match(reasons[0]!, /^watch failed: etcd cancelled the watch \(history compacted/);
  await settle();
  assert.deepEqual(fx.warnings, []);
  stop.abort();
});
