import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, codeOf, connect, grpc } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type { GetDrainedShardsResponse__Output } from "../src/wire/proto.ts";

Deno.test("an executor reporting DRAINING is emptied and gets nothing new", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("drain-executor"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 30 }],
  }));
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b", "c"], { intervalMs: 200 });
  try {
    await eventually(
      () => executors.every((e) => e.shards.length === 10),
      10_000,
      "10 shards each",
    );
    const [draining, ...others] = executors as [typeof executors[0], ...typeof executors];
    draining.status = "EXECUTOR_STATUS_DRAINING";
    await eventually(
      () => draining.shards.length === 0,
      5_000,
      "the draining executor to be emptied",
    );
    await eventually(
      () => others.every((e) => e.shards.length === 15),
      5_000,
      "the others to take over",
    );
    // Nothing must come back: two rebalance periods (500 ms) for a wrong assignment to show.
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(draining.shards.length, 0, "still nothing after a few passes");
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});

Deno.test("a drained shard is released and GetShardOwner answers FAILED_PRECONDITION until it is undrained", async () => {
  await using etcd = await startEtcd();
  const prefix = uniquePrefix("drain-shard");
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix,
    namespaces: [{ name: "ns", type: "fixed", shardNum: 8 }, { name: "eph", type: "ephemeral" }],
  });
  let instance = await startInProcess(yaml);
  let clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b"], { intervalMs: 200 });
  try {
    await eventually(() => executors.every((e) => e.shards.length === 4), 10_000, "a partition");
    const owner = executors.find((e) => e.shards.includes("3"))!;
    const drained = await call<unknown, { drainedShardKeys: string[] }>(
      clients.api,
      "drainShards",
      {
        namespace: "ns",
        shardKeys: ["3"],
      },
    );
    assert.deepEqual(drained.drainedShardKeys, ["3"]);
    // Read-your-writes on the same instance: refused at once.
    assert.equal(
      await codeOf(call(clients.api, "getShardOwner", { namespace: "ns", shardKey: "3" })),
      grpc.status.FAILED_PRECONDITION,
    );
    await eventually(() => !owner.shards.includes("3"), 5_000, "the owner to release shard 3");
    assert.ok(executors.every((e) => !e.shards.includes("3")), "nobody owns a drained shard");

    // The drain survives a restart of the service.
    await instance.stop();
    instance = await startInProcess(yaml);
    clients.close();
    clients = connect(instance.server.address);
    const list = await call<unknown, GetDrainedShardsResponse__Output>(
      clients.api,
      "getDrainedShards",
      {
        namespace: "ns",
      },
    );
    assert.deepEqual(list.shardKeys, ["3"]);
    assert.equal(
      await codeOf(call(clients.api, "getShardOwner", { namespace: "ns", shardKey: "3" })),
      grpc.status.FAILED_PRECONDITION,
    );
    assert.equal(
      await codeOf(call(clients.api, "inspectShard", { namespace: "ns", shardKey: "3" })),
      grpc.status.FAILED_PRECONDITION,
    );

    const undrained = await call<unknown, { undrainedShardKeys: string[] }>(
      clients.api,
      "undrainShards",
      {
        namespace: "ns",
        shardKeys: ["3"],
      },
    );
    assert.deepEqual(undrained.undrainedShardKeys, ["3"]);
    await eventually(
      async () =>
        (await codeOf(call(clients.api, "getShardOwner", { namespace: "ns", shardKey: "3" }))) ===
          "ok",
      5_000,
      "shard 3 to have an owner again",
    );

    // Draining an unknown shard of a fixed namespace is NOT_FOUND; an empty list is INVALID_ARGUMENT.
    assert.equal(
      await codeOf(call(clients.api, "drainShards", { namespace: "ns", shardKeys: ["99"] })),
      grpc.status.NOT_FOUND,
    );
    assert.equal(
      await codeOf(call(clients.api, "drainShards", { namespace: "ns", shardKeys: [] })),
      grpc.status.INVALID_ARGUMENT,
    );
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});
