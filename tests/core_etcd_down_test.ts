// deno-lint-ignore-file no-console -- the measured figure is printed for whoever runs the test
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
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
