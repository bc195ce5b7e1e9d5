// deno-lint-ignore-file no-console -- the measured figures are printed for whoever runs the test
/**
 * An instance stops in bounded time whatever etcd does: paused (every call
 * waits), or gone while a leader is being elected (etcd3 would wait for it to
 * confirm a watch forever).
 */
import assert from "node:assert/strict";
import { createEtcdClient } from "../src/store/etcd/client.ts";
import { cancelWatcher, createWatcher, WATCH_CANCEL_MS } from "../src/store/etcd/watchers.ts";
import { STOP_WAIT_MS } from "../src/service/stop_within.ts";
import { startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { connect } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

Deno.test("an instance leading namespaces stops within its bound while etcd is paused", async () => {
  await using etcd = await startEtcdCluster(1);
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("stop-paused"),
    namespaces: [
      { name: "a", type: "fixed", shardNum: 4 },
      { name: "b", type: "fixed", shardNum: 4 },
    ],
  }));
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "a", ["e1"], { intervalMs: 200 });
  try {
    await eventually(() => executors[0]!.shards.length === 4, 10_000, "e1 owns a's shards");
    for (const e of executors) e.stop();
    clients.close();
    await etcd.members[0]!.kill("SIGSTOP");
    const started = performance.now();
    await instance.stop();
    const tookMs = performance.now() - started;
    console.log(`stopped in ${Math.round(tookMs)} ms with etcd paused`);
    // Three bounded steps (leaderships, heartbeat writes, listeners), then closing the clients.
    assert.ok(tookMs < 3 * STOP_WAIT_MS + 5_000, `stop took ${Math.round(tookMs)} ms`);
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    await etcd.members[0]!.kill("SIGCONT");
    await instance.stop();
  }
});

Deno.test("a watch etcd never confirms is given up on its signal and cancelled in bounded time", async () => {
  await using etcd = await startEtcdCluster(1);
  const client = createEtcdClient({ endpoints: etcd.endpoints, dialTimeoutMs: 1_000 });
  const key = `${uniquePrefix("watch-gone")}/k`;
  try {
    await client.put(key).value("v"); // connected once, then etcd goes away
    await etcd.members[0]!.kill();
    // etcd3's own create() waits for etcd's confirmation, however long etcd is gone.
    const waited = await Promise.race([
      client.watch().key(key).create().then(() => "confirmed", () => "failed"),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 1_000)),
    ]);
    assert.equal(waited, "still waiting");

    const started = performance.now();
    await assert.rejects(
      createWatcher(client.watch().key(key), AbortSignal.timeout(300)),
      (error: Error) => error.name === "TimeoutError",
    );
    assert.ok(performance.now() - started < 2_000, "given up on the signal");

    const unconfirmed = client.watch().key(key).watcher();
    const cancelling = performance.now();
    await cancelWatcher(unconfirmed);
    assert.ok(performance.now() - cancelling < WATCH_CANCEL_MS + 1_000, "cancel is bounded");
  } finally {
    client.close();
  }
});
