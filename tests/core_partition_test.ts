import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect, watch } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type {
  GetNamespaceStateResponse__Output,
  GetShardOwnerResponse__Output,
} from "../src/wire/proto.ts";

Deno.test("three executors on a fixed 32-shard namespace receive a partition, and routing, state and watch agree", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("partition"),
    namespaces: [{ name: "orders", type: "fixed", shardNum: 32 }],
  });
  const instance = await startInProcess(yaml);
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "orders", ["exec-a", "exec-b", "exec-c"]);
  const watcher = watch(clients, "orders");
  try {
    // Every shard exactly once, 10 or 11 each, as the executors were told.
    await eventually(
      () => {
        const all = executors.flatMap((e) => e.shards);
        return all.length === 32 && new Set(all).size === 32 &&
          executors.every((e) => e.shards.length === 10 || e.shards.length === 11);
      },
      10_000,
      "a balanced partition",
    );
    // Wait for a stable picture: two more heartbeats each with the same answer.
    const told = new Map(executors.flatMap((e) => e.shards.map((s) => [s, e.id] as const)));
    const beats = executors.map((e) => e.beats);
    await eventually(
      () => executors.every((e, i) => e.beats >= beats[i]! + 2),
      5_000,
      "more heartbeats",
    );
    assert.deepEqual(
      new Map(executors.flatMap((e) => e.shards.map((s) => [s, e.id] as const))),
      told,
      "assignment stayed stable",
    );
    assert.deepEqual([...told.keys()].map(Number).sort((a, b) => a - b), [...Array(32).keys()]);

    for (let shard = 0; shard < 32; shard++) {
      const res = await call<unknown, GetShardOwnerResponse__Output>(clients.api, "getShardOwner", {
        namespace: "orders",
        shardKey: String(shard),
      });
      assert.equal(res.owner, told.get(String(shard)), `owner of shard ${shard}`);
      assert.equal(res.metadata.address, `${res.owner}.example:1234`);
    }

    const state = await call<unknown, GetNamespaceStateResponse__Output>(
      clients.api,
      "getNamespaceState",
      {
        namespace: "orders",
      },
    );
    assert.equal(state.executors.length, 3);
    for (const e of state.executors) {
      assert.equal(e.status, "EXECUTOR_STATUS_ACTIVE");
      assert.ok(Number(e.lastHeartbeat?.seconds) > 0);
      assert.deepEqual(
        e.assignedShards.map((s) => s.shardKey).sort(),
        [...told].filter(([, owner]) => owner === e.executorId).map(([s]) => s).sort(),
      );
      for (const s of e.assignedShards) {
        assert.equal(s.assignmentStatus, "ASSIGNMENT_STATUS_READY");
        assert.ok(Number(s.assignedStateModRevision) > 0);
      }
    }

    await eventually(
      () => {
        const last = watcher.messages.at(-1);
        if (!last) return false;
        const seen = new Map(
          last.executors.flatMap((e) => e.shards.map((s) => [s.shardKey, e.executorId] as const)),
        );
        return seen.size === 32 && [...told].every(([s, owner]) => seen.get(s) === owner);
      },
      5_000,
      "the watch stream to show the same assignment",
    );
    assert.ok(watcher.messages.length >= 1);
  } finally {
    watcher.cancel();
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});
