import assert from "node:assert/strict";
import { createEtcdClient } from "../src/store/etcd/mod.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type { ForceResetNamespaceResponse__Output } from "../src/wire/proto.ts";

const partitioned = (executors: { shards: string[] }[], shards: number) => () => {
  const all = executors.flatMap((e) => e.shards);
  return all.length === shards && new Set(all).size === shards;
};

Deno.test("the leader store and the main store can be different etcd clusters", async () => {
  await using mainEtcd = await startEtcd();
  await using leaderEtcd = await startEtcd();
  const prefix = uniquePrefix("two-clusters");
  const instance = await startInProcess(testConfigYaml({
    endpoints: mainEtcd.endpoints,
    leaderEndpoints: leaderEtcd.endpoints,
    prefix,
    namespaces: [{ name: "ns", type: "fixed", shardNum: 12 }],
  }));
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b"], { intervalMs: 200 });
  const leaderClient = createEtcdClient({ endpoints: leaderEtcd.endpoints, dialTimeoutMs: 2_000 });
  const mainClient = createEtcdClient({ endpoints: mainEtcd.endpoints, dialTimeoutMs: 2_000 });
  try {
    await eventually(partitioned(executors, 12), 10_000, "a partition");
    const electionKeys = await leaderClient.getAll().prefix(`${prefix}/leader/`).keys();
    assert.ok(electionKeys.length >= 1, "elections run in the leader store");
    assert.deepEqual(await mainClient.getAll().prefix(`${prefix}/leader/`).keys(), []);
    assert.ok((await mainClient.getAll().prefix(`${prefix}/store/`).keys()).length > 0);
    assert.deepEqual(await leaderClient.getAll().prefix(`${prefix}/store/`).keys(), []);
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    leaderClient.close();
    mainClient.close();
    await instance.stop();
  }
});

Deno.test("ForceResetNamespace deletes one namespace's state, and the namespace recovers by itself", async () => {
  await using etcd = await startEtcd();
  const prefix = uniquePrefix("reset");
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix,
    namespaces: [{ name: "a", type: "fixed", shardNum: 6 }, {
      name: "ab",
      type: "fixed",
      shardNum: 6,
    }],
  }));
  const clients = connect(instance.server.address);
  const inA = runExecutors(clients, "a", ["a1", "a2"], { intervalMs: 200 });
  const inAb = runExecutors(clients, "ab", ["ab1"], { intervalMs: 200 });
  const raw = createEtcdClient({ endpoints: etcd.endpoints, dialTimeoutMs: 2_000 });
  try {
    await eventually(
      () => partitioned(inA, 6)() && partitioned(inAb, 6)(),
      10_000,
      "both partitioned",
    );
    await call(clients.api, "drainShards", { namespace: "a", shardKeys: ["5"] });
    const before = await raw.getAll().prefix(`${prefix}/store/ns/ab/`).keys();
    const res = await call<unknown, ForceResetNamespaceResponse__Output>(
      clients.api,
      "forceResetNamespace",
      { namespace: "a" },
    );
    assert.ok(Number(res.deletedKeys) >= 5, `deleted ${res.deletedKeys} keys`);
    assert.deepEqual(
      await raw.getAll().prefix(`${prefix}/store/ns/ab/`).keys(),
      before,
      "ab untouched",
    );
    assert.ok(
      (await raw.getAll().prefix(`${prefix}/leader/`).keys()).length > 0,
      "leader store untouched",
    );
    // The drain is gone with the rest; executors re-register and shards are placed again.
    await eventually(
      async () => {
        const drained = await call<unknown, { shardKeys: string[] }>(
          clients.api,
          "getDrainedShards",
          {
            namespace: "a",
          },
        );
        return drained.shardKeys.length === 0;
      },
      5_000,
      "the drain to be gone",
    );
    await eventually(partitioned(inA, 6), 15_000, "namespace a to be partitioned again");
  } finally {
    for (const e of [...inA, ...inAb]) e.stop();
    clients.close();
    raw.close();
    await instance.stop();
  }
});
