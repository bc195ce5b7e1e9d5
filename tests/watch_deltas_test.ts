import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect, watch } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

Deno.test("watchers that accept deltas get one snapshot, then only the shards that moved", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("watch-deltas"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 200 }],
  }));
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b"], { intervalMs: 200 });
  try {
    await eventually(() => executors.every((e) => e.shards.length === 100), 10_000, "partition");
    const old = watch(clients, "ns");
    const deltas = watch(clients, "ns", { acceptDeltas: true });
    await eventually(() => old.messages.length > 0 && deltas.messages.length > 0, 5_000, "first");
    const snapshot = deltas.messages[0]!;
    assert.equal(snapshot.isDelta, false);
    assert.equal(snapshot.executors.flatMap((e) => e.shards).length, 200);
    const owner = snapshot.executors.find((e) => e.shards.some((s) => s.shardKey === "7"))!;
    const before = [old.messages.length, deltas.messages.length];

    await call(clients.api, "drainShards", { namespace: "ns", shardKeys: ["7"] });
    await eventually(
      () => deltas.messages.slice(before[1]).some((m) => m.ownerChanges.length > 0),
      5_000,
      "a delta",
    );
    const delta = deltas.messages.slice(before[1]).find((m) => m.ownerChanges.length > 0)!;
    assert.equal(delta.isDelta, true);
    assert.deepEqual(delta.ownerChanges, [{ shardKey: "7", executorId: "", executorIds: [] }]);
    assert.ok(Number(delta.revision) > Number(snapshot.revision));
    assert.ok(owner.executorId === "a" || owner.executorId === "b");

    await eventually(() => old.messages.length > before[0]!, 5_000, "old clients' snapshot");
    const latest = old.messages.at(-1)!;
    assert.equal(latest.isDelta, false, "clients that did not ask get whole snapshots");
    assert.equal(latest.executors.flatMap((e) => e.shards).length, 199);
    old.cancel();
    deltas.cancel();
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});
