import assert from "node:assert/strict";
import { Executor, type ExecutorEvent, type ShardContext } from "../src/client/executor/mod.ts";
import type { GetShardOwnerResponse__Output } from "../src/wire/proto.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { call, codeOf, connect, grpc } from "./support/grpc_clients.ts";
import { startSdkProcess } from "./support/sdk_process.ts";
import { startInProcess, startProcess, testConfigYaml } from "./support/service.ts";

/** An SDK executor that records what its processors do. */
function recordingExecutor(
  addresses: string | string[],
  namespace: string,
  executorId: string,
  onStart: (ctx: ShardContext) => void = () => {},
) {
  const running = new Map<string, string>(); // shard → fencing token
  const tokens: { shard: string; token: string }[] = [];
  const events: ExecutorEvent[] = [];
  const executor = new Executor({
    addresses,
    namespace,
    executorId,
    metadata: { address: `${executorId}.test:8080` },
    heartbeatIntervalMs: 200,
    processor: (ctx) => {
      running.set(ctx.shardKey, ctx.fencingToken);
      tokens.push({ shard: ctx.shardKey, token: ctx.fencingToken });
      onStart(ctx);
      return { stop: () => void running.delete(ctx.shardKey) };
    },
  });
  void (async () => {
    for await (const event of executor.events()) events.push(event);
  })();
  void executor.start(); // callers wait on shards, events or errors, not on the first answer
  return { executor, running, tokens, events };
}

const shardSet = (n: number) => new Set(Array.from({ length: n }, (_, i) => String(i)));

Deno.test("three SDK executors partition 12 shards; one shuts down gracefully and its shards move with higher fencing tokens", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("sdk-partition"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 12 }],
  }));
  const address = instance.server.address;
  const nodes = ["a", "b", "c"].map((id) => recordingExecutor(address, "ns", id));
  const clients = connect(address);
  try {
    const partitioned = () => {
      const all = nodes.flatMap((n) => [...n.running.keys()]);
      return all.length === 12 && new Set(all).size === 12 &&
        nodes.every((n) => n.running.size === 4);
    };
    await eventually(partitioned, 15_000, "4 shards on each executor");
    const owner = await call<unknown, GetShardOwnerResponse__Output>(clients.api, "getShardOwner", {
      namespace: "ns",
      shardKey: "5",
    });
    const holder = nodes.find((n) => n.running.has("5"))!;
    assert.equal(owner.owner, holder.executor.id);
    assert.equal(
      owner.metadata.address,
      `${holder.executor.id}.test:8080`,
      "metadata reaches spectators",
    );

    const [leaving, ...staying] = nodes as [typeof nodes[0], ...typeof nodes];
    const moved = new Map(leaving.running);
    await leaving.executor.shutdown();
    assert.equal(leaving.running.size, 0, "every processor stopped");
    assert.ok(
      leaving.events.some((e) => e.type === "released" && e.reason === "unassigned"),
      "the service took the shards away while draining",
    );
    await eventually(
      () => staying.every((n) => n.running.size === 6),
      10_000,
      "6 shards on each remaining executor",
    );
    assert.deepEqual(new Set(staying.flatMap((n) => [...n.running.keys()])), shardSet(12));
    for (const [shard, oldToken] of moved) {
      const newToken = staying.find((n) => n.running.has(shard))!.running.get(shard)!;
      assert.ok(BigInt(newToken) > BigInt(oldToken), `shard ${shard}: ${newToken} > ${oldToken}`);
    }
    // The final heartbeat is durable when answered; GetNamespaceState answers
    // from the instance's watch-fed view, which may lag it by a moment.
    let status: string | undefined;
    await eventually(
      async () => {
        const state = await call<unknown, { executors: { executorId: string; status: string }[] }>(
          clients.api,
          "getNamespaceState",
          { namespace: "ns" },
        );
        status = state.executors.find((e) => e.executorId === "a")?.status;
        return /DRAINED/.test(String(status));
      },
      5_000,
      () => `the final heartbeat said DRAINED (last seen: ${status})`,
    );
  } finally {
    clients.close();
    for (const n of nodes) await n.executor.shutdown();
    await instance.stop();
  }
});

Deno.test("shards of a SIGKILLed executor process move to the survivor", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("sdk-kill"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 6 }],
  }));
  const address = instance.server.address;
  const survivor = recordingExecutor(address, "ns", "survivor");
  await using child = await startSdkProcess("executor", {
    addresses: [address],
    namespace: "ns",
    name: "victim",
  });
  try {
    const childShards = () => {
      const held = new Set<string>();
      for (const e of child.events) {
        if (e.event === "start") held.add(e.shard!);
        if (e.event === "stop") held.delete(e.shard!);
      }
      return held;
    };
    await eventually(
      () => childShards().size === 3 && survivor.running.size === 3,
      15_000,
      "3 shards each",
    );
    await child.kill("SIGKILL");
    await eventually(() => survivor.running.size === 6, 10_000, "the survivor to own all 6");
  } finally {
    await survivor.executor.shutdown();
    await instance.stop();
  }
});

Deno.test("an executor fails over to the next address when its instance dies, and its shards keep running", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("sdk-failover"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
  });
  await using doomed = await startProcess(yaml, "doomed");
  const healthy = await startInProcess(yaml, "healthy");
  const node = recordingExecutor([doomed.address, healthy.server.address], "ns", "e1");
  try {
    await eventually(() => node.running.size === 4, 15_000, "all 4 shards");
    const before = node.events.length;
    await doomed.kill("SIGKILL");
    await eventually(
      () => node.events.slice(before).some((e) => e.type === "heartbeat-recovered"),
      10_000,
      "heartbeats through the other address",
    );
    await new Promise((r) => setTimeout(r, 3_000)); // longer than heartbeatTTL: still the owner
    assert.equal(node.running.size, 4);
    assert.ok(!node.events.some((e) => e.type === "released"), "no shard was released");
  } finally {
    await node.executor.shutdown();
    await healthy.stop();
  }
});

Deno.test("an ephemeral shard whose processor calls done() is removed by the service", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("sdk-done"),
    namespaces: [{ name: "jobs", type: "ephemeral" }],
  }));
  const address = instance.server.address;
  const clients = connect(address);
  const node = recordingExecutor(address, "jobs", "worker", (ctx) => {
    ctx.reportLoad(3);
    if (ctx.shardKey === "job-1") setTimeout(() => ctx.done(), 300); // the job runs, then ends
  });
  try {
    const ask = (shardKey: string) =>
      eventually(
        async () =>
          await codeOf(call(clients.api, "getShardOwner", { namespace: "jobs", shardKey })) ===
            "ok",
        10_000,
        `an owner for ${shardKey} (once the executor is registered)`,
      );
    await ask("job-1");
    await ask("job-2");
    await eventually(
      () => node.events.some((e) => e.type === "released" && e.shardKey === "job-1"),
      10_000,
      "job-1 to be released",
    );
    assert.deepEqual([...node.running.keys()], ["job-2"]);
    assert.equal(
      await codeOf(call(clients.api, "inspectShard", { namespace: "jobs", shardKey: "job-1" })),
      grpc.status.NOT_FOUND,
      "the shard is gone",
    );
  } finally {
    clients.close();
    await node.executor.shutdown();
    await instance.stop();
  }
});
