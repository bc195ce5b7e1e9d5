/**
 * An executor is never given more shards than it may report in one heartbeat
 * (`limits.maxShardReportsPerHeartbeat`): the first executor of a cold start
 * gets as many as it can report, keeps heartbeating, and the rest are placed
 * as others join.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { type Clients, connect, heartbeat } from "./support/grpc_clients.ts";
import { eventually } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type { HeartbeatRequest } from "../src/wire/proto.ts";

/** An executor reporting its shards READY every 100 ms; counts failed heartbeats. */
function executorLoop(clients: Clients, id: string) {
  let shards: string[] = [];
  let failures = 0;
  let lastError = "";
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const reports: NonNullable<HeartbeatRequest["shardStatusReports"]> = {};
      for (const shard of shards) reports[shard] = { status: "SHARD_STATUS_READY", shardLoad: 1 };
      try {
        const res = await heartbeat(clients, {
          namespace: "ns",
          executorId: id,
          status: "EXECUTOR_STATUS_ACTIVE",
          shardStatusReports: reports,
        });
        shards = Object.keys(res.shardAssignments);
      } catch (error) {
        failures++;
        lastError = String(error);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    shards: () => shards,
    failures: () => ({ failures, lastError }),
    stop: () => {
      stopped = true;
      return loop;
    },
  };
}

Deno.test("a cold start gives the first executor no more shards than it may report, and places the rest as executors join", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("capacity"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 30 }],
    limits: { maxShardReportsPerHeartbeat: 10 },
  }));
  const clients = connect(instance.server.address);
  const executors = [executorLoop(clients, "a")];
  try {
    await eventually(() => executors[0]!.shards().length === 10, 10_000, "10 shards on a");
    // Several heartbeats with its 10 reports, none refused, and no 11th shard.
    await new Promise((r) => setTimeout(r, 1_000));
    assert.deepEqual(executors[0]!.failures(), { failures: 0, lastError: "" });
    assert.equal(executors[0]!.shards().length, 10);

    executors.push(executorLoop(clients, "b"), executorLoop(clients, "c"));
    await eventually(
      () => new Set(executors.flatMap((e) => e.shards())).size === 30,
      15_000,
      () => `all 30 placed (now ${executors.map((e) => e.shards().length).join("/")})`,
    );
    for (const e of executors) {
      assert.equal(e.shards().length, 10);
      assert.equal(e.failures().failures, 0, e.failures().lastError);
    }
  } finally {
    for (const e of executors) await e.stop();
    clients.close();
    await instance.stop();
  }
});
