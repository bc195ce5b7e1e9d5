/**
 * A deleted namespace's history goes once its retention ends, whether or not
 * anyone reads it again (found by the soak, `deno task soak`: every namespace
 * created and deleted left its events in etcd for good, since they were only
 * trimmed when read). The instance's sweep trims the history of namespaces
 * that no longer exist every quarter of `history.maxAge` (at least 1 s), and
 * of live ones as well (the soak's key census showed live namespaces' events
 * kept past `maxAge` until 50 more were recorded).
 */
import assert from "node:assert/strict";
import { Etcd3 } from "etcd3";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { eventually } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

Deno.test("history: a deleted namespace's events leave the store once past the retention, unread", async () => {
  await using etcd = await startEtcd();
  const prefix = uniquePrefix("history sweep");
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix,
    namespaces: [{ name: "ns", type: "fixed", shardNum: 2 }],
  }).replace("shardDistribution:\n", "shardDistribution:\n  history:\n    maxAge: 3s\n");
  const instance = await startInProcess(yaml, "sweep-1");
  const clients = connect(instance.server.address);
  const client = new Etcd3({ hosts: etcd.endpoints });
  const keys = (ns: string) => client.getAll().prefix(`${prefix}/store/history/${ns}/`).keys();
  try {
    const definitionYaml = "name: temp\ntype: fixed\nshardNum: 2\n";
    await call(clients.api, "createNamespace", { namespace: "temp", definitionYaml });
    await call(clients.api, "deleteNamespace", { namespace: "temp" });
    // Readable right after the delete (operations.md: until its retention ends).
    const read = await call<unknown, { events: { type: string }[] }>(
      clients.api,
      "listNamespaceEvents",
      { namespace: "temp" },
    );
    assert.ok(read.events.some((e) => e.type === "namespace_deleted"), JSON.stringify(read));
    const deletedAt = Date.now();
    assert.ok((await keys("temp")).length > 0);

    // Nobody reads it again; the sweep (every 1 s here) drops it 3 s after its last event.
    await eventually(async () => (await keys("temp")).length === 0, 10_000, "temp swept");
    assert.ok(Date.now() - deletedAt >= 2_000, "not before its retention");
    // A live namespace that records nothing more loses its events past the retention too
    // (before, they stayed until 50 more events were recorded).
    await eventually(async () => (await keys("ns")).length === 0, 10_000, "ns swept");
  } finally {
    clients.close();
    client.close();
    await instance.stop();
  }
});
