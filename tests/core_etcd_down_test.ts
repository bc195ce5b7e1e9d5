// deno-lint-ignore-file no-console -- the measured figure is printed for whoever runs the test
import assert from "node:assert/strict";
import { startEtcd, startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { call, connect, grpc, heartbeat } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type { GetShardOwnerResponse__Output } from "../src/wire/proto.ts";

Deno.test("with etcd down, routing answers from the cache and heartbeats fail cleanly with UNAVAILABLE", async () => {
  const etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("etcd-down"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
    process: { heartbeatTTL: "30s" },
  }));
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a"], { intervalMs: 200 });
  try {
    await eventually(() => executors[0]!.shards.length === 4, 10_000, "a owns every shard");
    executors[0]!.stop();
    await etcd.close();
    const owner = await call<unknown, GetShardOwnerResponse__Output>(clients.api, "getShardOwner", {
      namespace: "ns",
      shardKey: "2",
    });
    assert.equal(owner.owner, "a");
    const started = performance.now();
    const error = await heartbeat(clients, {
      namespace: "ns",
      executorId: "b",
      status: "EXECUTOR_STATUS_ACTIVE",
    }).then(() => undefined, (e: grpc.ServiceError) => e);
    assert.equal(error?.code, grpc.status.UNAVAILABLE, error?.details ?? "the heartbeat succeeded");
    console.log(
      `heartbeat failed after ${Math.round(performance.now() - started)} ms: ${error?.details}`,
    );
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});

Deno.test("with etcd down, health is degraded and writes fail with UNAVAILABLE; all recovers when etcd returns", async () => {
  const etcd = await startEtcdCluster(1);
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("etcd-down-recovery"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
    process: { heartbeatTTL: "30s" },
  }));
  const clients = connect(instance.server.address);
  const http = `http://${instance.http.address}`;
  const readyz = () =>
    fetch(`${http}/readyz`).then(async (r) => (await r.body?.cancel(), r.status));
  const executors = runExecutors(clients, "ns", ["a"], { intervalMs: 200 });
  try {
    await eventually(() => executors[0]!.shards.length === 4, 10_000, "a owns every shard");
    await eventually(async () => (await readyz()) === 200, 10_000, "ready");

    await etcd.members[0]!.kill();
    const down = performance.now();
    await eventually(async () => (await readyz()) === 503, 15_000, "not ready while etcd is down");
    console.log(`/readyz answered 503 ${Math.round(performance.now() - down)} ms after etcd died`);
    // Reads keep coming from the cache.
    const owner = await call<unknown, GetShardOwnerResponse__Output>(clients.api, "getShardOwner", {
      namespace: "ns",
      shardKey: "1",
    });
    assert.equal(owner.owner, "a");
    // Writes fail cleanly, with UNAVAILABLE and a message, not INTERNAL.
    for (
      const [method, request] of [
        ["drainShards", { namespace: "ns", shardKeys: ["1"] }],
        // Forced: the disruption budget (checked against the cache) would refuse it first.
        ["drainExecutors", { namespace: "ns", executorId: "a", force: true }],
        ["forceResetNamespace", { namespace: "ns" }],
      ] as const
    ) {
      const error = await call(clients.api, method, request).then(
        () => undefined,
        (e: grpc.ServiceError) => e,
      );
      assert.equal(error?.code, grpc.status.UNAVAILABLE, `${method}: ${error?.details}`);
    }

    await etcd.members[0]!.start();
    const back = performance.now();
    await eventually(async () => (await readyz()) === 200, 30_000, "ready again");
    // Heartbeats, writes and placement work again without a restart.
    await call(clients.api, "drainShards", { namespace: "ns", shardKeys: ["3"] });
    await eventually(
      () => !executors[0]!.shards.includes("3") && executors[0]!.shards.length === 3,
      15_000,
      "the drained shard leaves its owner",
    );
    const late = runExecutors(clients, "ns", ["b"], { intervalMs: 200 });
    executors.push(...late);
    await eventually(() => late[0]!.shards.length > 0, 15_000, "a new executor gets shards");
    console.log(`recovered ${Math.round(performance.now() - back)} ms after etcd came back`);
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
    await etcd.close();
  }
});
