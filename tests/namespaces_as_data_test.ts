/**
 * Namespaces as data against real etcd with two instances: a namespace
 * created through smctl takes executors on both instances without a restart,
 * an update applies at the next term, unsafe changes are refused and leave it
 * as it was, file namespaces are read-only through the API, `get -o yaml` is
 * accepted back by `create -f`, and a delete drains first, then removes the
 * namespace everywhere (heartbeats then get NOT_FOUND).
 */
import assert from "node:assert/strict";
import type { RunningInstance } from "../src/app.ts";
import { createSpectator } from "../src/client/spectator/mod.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { call, codeOf, connect, grpc, heartbeat } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { smctl } from "./support/smctl.ts";

// A fresh namespace places at once here (the cold-start wait is tested in cold_start_test.ts).
const ORDERS = "name: orders\ntype: fixed\nshardNum: 4\nloadBalancer: greedy\ncoldStartWait: 0s\n";

/** Every shard of `namespace` as `instance` sees it, sorted. */
function owned(instance: RunningInstance, namespace: string): string[] {
  if (!instance.manager.namespaces.has(namespace)) return [];
  return [...instance.manager.namespaces.view(namespace).owned()].map(([shard]) => shard)
    .sort();
}

Deno.test("namespaces as data: create through smctl, follow on every instance, update, refuse, delete after draining", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("namespaces as data"),
    namespaces: [{ name: "jobs", type: "fixed", shardNum: 2 }],
  });
  const a = await startInProcess(yaml, "instance-a");
  const b = await startInProcess(yaml, "instance-b");
  const ca = connect(a.server.address);
  const cb = connect(b.server.address);
  const dir = await Deno.makeTempDir();
  const executors = runExecutors(ca, "orders", ["ex-1", "ex-2"], {
    intervalMs: 200,
    clientFor: (i) => i === 0 ? ca : cb,
  });
  try {
    // Create through smctl on instance a: both instances serve it within a second.
    await Deno.writeTextFile(`${dir}/orders.yaml`, ORDERS);
    const sm = (...args: string[]) => smctl(["--address", a.server.address, ...args]);
    const created = await sm("namespace", "create", "-f", `${dir}/orders.yaml`);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /Created namespace "orders"/);
    await eventually(() => b.manager.namespaces.has("orders"), 1_000, "b to follow the create");
    await eventually(
      () => executors.flatMap((e) => e.shards).sort().join() === "0,1,2,3",
      15_000,
      "the executors on both instances to get every shard",
    );
    // Balancing waits for the settling window after the last join (issue 15's churn rules).
    await eventually(
      () => executors.every((e) => e.shards.length > 0),
      15_000,
      "both executors to get shards",
    );

    // ListNamespaces says where each definition comes from.
    const listed = await call<unknown, { namespaces: { name: string; source: string }[] }>(
      cb.api,
      "listNamespaces",
      {},
    );
    assert.deepEqual(
      listed.namespaces.map((n) => [n.name, n.source]).sort(),
      [["jobs", "file"], ["orders", "api"]],
    );
    const again = await sm("namespace", "create", "-f", `${dir}/orders.yaml`);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /exists already/);

    // Invalid definitions are refused naming the field.
    await Deno.writeTextFile(`${dir}/bad.yaml`, "name: bad\ntype: fixed\nshardNum: 0\n");
    const bad = await sm("namespace", "create", "-f", `${dir}/bad.yaml`);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /INVALID_ARGUMENT|invalid/i);
    assert.match(bad.stderr, /shardNum/);

    // Unsafe changes are refused and leave the namespace as it was.
    await Deno.writeTextFile(`${dir}/exclusive.yaml`, ORDERS + "ownership: exclusive\n");
    const exclusive = await sm("namespace", "update", "-f", `${dir}/exclusive.yaml`, "--force");
    assert.notEqual(exclusive.code, 0);
    assert.match(exclusive.stderr, /cannot switch ownership from available to exclusive/);
    await Deno.writeTextFile(`${dir}/six.yaml`, ORDERS.replace("shardNum: 4", "shardNum: 6"));
    const unforced = await sm("namespace", "update", "-f", `${dir}/six.yaml`);
    assert.notEqual(unforced.code, 0);
    assert.match(unforced.stderr, /--force/);
    const got = await sm("namespace", "get", "orders", "-o", "yaml");
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.stdout, ORDERS);
    assert.deepEqual(b.manager.namespaces.policy("orders").keys, {
      kind: "fixed",
      shardNum: 4,
    });

    // The file's namespace is read-only through the API.
    await Deno.writeTextFile(`${dir}/jobs.yaml`, "name: jobs\ntype: fixed\nshardNum: 3\n");
    const file = await sm("namespace", "update", "-f", `${dir}/jobs.yaml`, "--force");
    assert.notEqual(file.code, 0);
    assert.match(file.stderr, /defined in the configuration file: edit the file/);

    // A spectator on instance b follows the namespace through its update.
    await using spectator = createSpectator({ addresses: [b.server.address], namespace: "orders" });
    await spectator.waitReady({ timeoutMs: 10_000 });
    await eventually(() => spectator.ownerOf("3") !== undefined, 10_000, "the spectator's map");

    // An update applies on both instances; with --force new shards are placed.
    await Deno.writeTextFile(
      `${dir}/six.yaml`,
      ORDERS.replace("shardNum: 4", "shardNum: 6").replace("greedy", "naive"),
    );
    const grown = await sm("namespace", "update", "-f", `${dir}/six.yaml`, "--force");
    assert.equal(grown.code, 0, grown.stderr);
    assert.match(grown.stdout, /shardNum: 4 → 6/);
    assert.match(grown.stdout, /loadBalancer: "greedy" → "naive"/);
    await eventually(
      () => {
        const { keys } = b.manager.namespaces.policy("orders");
        return keys.kind === "fixed" && keys.shardNum === 6;
      },
      1_000,
      "b to apply the update",
    );
    assert.equal(b.manager.namespaces.policy("orders").keys.kind, "fixed");
    await eventually(
      () => executors.flatMap((e) => e.shards).sort().join() === "0,1,2,3,4,5",
      15_000,
      "the new shards to be placed",
    );

    await eventually(
      () => spectator.ownerOf("5") !== undefined,
      15_000,
      "the spectator to see the new shards as ordinary changes",
    );

    // get -o yaml prints what create -f takes back.
    const saved = await sm("namespace", "get", "orders", "-o", "yaml");
    assert.equal(saved.code, 0, saved.stderr);
    await Deno.writeTextFile(`${dir}/saved.yaml`, saved.stdout);

    // Delete: drained first (the executors lose their shards), then gone everywhere.
    const deleted = await sm("namespace", "delete", "orders", "--yes");
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.ok(
      executors.every((e) => e.shards.length === 0),
      "shards were drained before the delete",
    );
    await eventually(() => !b.manager.namespaces.has("orders"), 1_000, "b to stop orders");
    assert.equal(
      await codeOf(heartbeat(cb, {
        namespace: "orders",
        executorId: "ex-1",
        status: "EXECUTOR_STATUS_ACTIVE",
        shardStatusReports: {},
        metadata: {},
      })),
      grpc.status.NOT_FOUND,
    );
    const gone = await sm("namespace", "get", "orders");
    assert.notEqual(gone.code, 0);
    for (const e of executors) await e.stop();
    const file2 = await sm("namespace", "delete", "jobs", "--yes");
    assert.notEqual(file2.code, 0);
    assert.match(file2.stderr, /defined in the configuration file/);

    // Created again from what get printed: a fresh namespace, no old state.
    const recreated = await sm("namespace", "create", "-f", `${dir}/saved.yaml`);
    assert.equal(recreated.code, 0, recreated.stderr);
    await eventually(() => b.manager.namespaces.has("orders"), 1_000, "b to follow the re-create");
    assert.deepEqual(b.manager.namespaces.policy("orders").keys, {
      kind: "fixed",
      shardNum: 6,
    });
    assert.deepEqual(owned(b, "orders"), []);
  } finally {
    for (const e of executors) await e.stop();
    ca.close();
    cb.close();
    await Promise.all([a.stop(), b.stop()]);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("namespaces as data: shrinking shardNum with force drains the removed shards before the change", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("namespaces shrink"),
    namespaces: [{ name: "jobs", type: "fixed", shardNum: 1 }],
  });
  const a = await startInProcess(yaml, "instance-a");
  const clients = connect(a.server.address);
  const executors = runExecutors(clients, "orders", ["ex-1", "ex-2"], { intervalMs: 200 });
  try {
    await a.manager.admin.create("orders", ORDERS);
    await eventually(
      () => executors.flatMap((e) => e.shards).sort().join() === "0,1,2,3",
      15_000,
      "every shard placed",
    );
    const refused = a.manager.admin.update("orders", ORDERS.replace("shardNum: 4", "shardNum: 2"));
    await assert.rejects(refused, /--force/);
    assert.deepEqual(a.manager.namespaces.policy("orders").keys, {
      kind: "fixed",
      shardNum: 4,
    });

    const { changes } = await a.manager.admin.update(
      "orders",
      ORDERS.replace("shardNum: 4", "shardNum: 2"),
      { force: true },
    );
    assert.deepEqual(changes, ["shardNum: 4 → 2"]);
    // By the time the change was stored, no executor held a removed shard any more.
    assert.ok(
      executors.every((e) => !e.shards.includes("2") && !e.shards.includes("3")),
      `removed shards still held: ${JSON.stringify(executors.map((e) => e.shards))}`,
    );
    assert.deepEqual(a.manager.namespaces.policy("orders").keys, {
      kind: "fixed",
      shardNum: 2,
    });
    assert.deepEqual(a.manager.operations.drainedShards("orders"), [], "drain marks cleared");
    await eventually(
      () => executors.flatMap((e) => e.shards).sort().join() === "0,1",
      15_000,
      "the remaining shards to stay placed",
    );
    assert.deepEqual(owned(a, "orders"), ["0", "1"]);
  } finally {
    for (const e of executors) await e.stop();
    clients.close();
    await a.stop();
  }
});

Deno.test("namespaces as data: an ownership lease change reaches executors with their next heartbeat", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("namespaces lease"),
    namespaces: [{ name: "jobs", type: "fixed", shardNum: 1 }],
  });
  const a = await startInProcess(yaml, "instance-a");
  const clients = connect(a.server.address);
  const beat = () =>
    heartbeat(clients, {
      namespace: "locks",
      executorId: "ex-1",
      status: "EXECUTOR_STATUS_ACTIVE",
      shardStatusReports: {},
      metadata: {},
    });
  const locks = (lease: string) =>
    `name: locks\ntype: fixed\nshardNum: 2\nownership: exclusive\nownershipLease: ${lease}\n`;
  try {
    await a.manager.admin.create("locks", locks("3s"));
    assert.equal((await beat()).ownershipLeaseMs, "3000");
    await assert.rejects(
      a.manager.admin.update("locks", locks("1s")),
      /ownershipLease: must be at least process.heartbeatTTL \(2s\), got 1s/,
    );
    const { changes } = await a.manager.admin.update("locks", locks("9s"));
    assert.deepEqual(changes, ['ownershipLease: "3s" → "9s"']);
    assert.equal((await beat()).ownershipLeaseMs, "9000");
  } finally {
    clients.close();
    await a.stop();
  }
});
