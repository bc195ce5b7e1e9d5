/**
 * GetBlastRadius and `smctl namespace blast-radius` on a small real
 * namespace, checked against a hand computation: six tenants on three cells,
 * two each, so one cell failing loses 2/6 and any two lose 4/6.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { call, codeOf, connect, grpc } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { json, smctl, tableRows } from "./support/smctl.ts";
import type { GetBlastRadiusResponse__Output } from "../src/wire/proto.ts";

Deno.test("blast radius of six tenants on three cells, then with one cell gone", async (t) => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("blast-radius"),
    namespaces: [
      { name: "customers", type: "ephemeral", mode: "cells" },
      { name: "orders", type: "fixed", shardNum: 4 },
    ],
  });
  const instance = await startInProcess(yaml, "sm-1");
  const address = instance.server.address;
  const clients = connect(address);
  const cells = runExecutors(clients, "customers", ["c1", "c2", "c3"], { intervalMs: 200 });
  const radius = (namespace: string) =>
    call<unknown, GetBlastRadiusResponse__Output>(clients.api, "getBlastRadius", { namespace });
  try {
    await eventually(() => cells.every((c) => c.beats > 0), 10_000, "cells beat");
    for (const tenant of ["a", "b", "c", "d", "e", "f"]) {
      await call(clients.api, "getShardOwner", { namespace: "customers", shardKey: tenant });
    }

    await t.step("the RPC's figures equal the hand computation", async () => {
      const r = await radius("customers");
      assert.equal(r.namespace, "customers");
      assert.equal(r.shards, "6");
      assert.equal(r.executors, "3");
      assert.equal(r.unownedShards, "0");
      assert.equal(r.fewestOwners, 1);
      assert.equal(r.singleMaxLost, 2 / 6);
      assert.equal(r.singleMeanLost, 2 / 6);
      assert.equal(r.singleMaxDegraded, 2 / 6);
      assert.equal(r.singleMeanDegraded, 2 / 6);
      assert.equal(r.worstExecutorId, "c1");
      assert.equal(r.pairMaxLost, 4 / 6);
      assert.equal(r.pairMeanLost, 4 / 6);
      assert.deepEqual(r.worstPairExecutorIds, ["c1", "c2"]);
      assert.equal(r.worstLost, 4 / 6);
    });

    await t.step("smctl prints it as a table and as JSON", async () => {
      const base = ["--address", address, "-n", "customers", "namespace", "blast-radius"];
      const table = await smctl(base);
      assert.equal(table.code, 0, table.stderr);
      assert.match(table.stdout, /^Worst lost \(1 or 2 fail\) {2}66\.7% \(4\)$/m);
      const rows = tableRows(table.stdout.split("\n\n")[1]!);
      assert.deepEqual(rows, [
        ["FAILING", "LOST MAX", "LOST MEAN", "DEGRADED MAX", "DEGRADED MEAN", "WORST"],
        ["any 1 executor", "33.3% (2)", "33.3% (2)", "33.3% (2)", "33.3% (2)", "c1"],
        ["any 2 executors", "66.7% (4)", "66.7% (4)", "-", "-", "c1 + c2"],
      ]);
      const doc = json<Record<string, unknown>>(await smctl([...base, "--json"]));
      assert.deepEqual(doc, {
        namespace: "customers",
        shards: 6,
        executors: 3,
        unownedShards: 0,
        fewestOwners: 1,
        single: {
          maxLost: 2 / 6,
          meanLost: 2 / 6,
          maxDegraded: 2 / 6,
          meanDegraded: 2 / 6,
          worstExecutor: "c1",
        },
        pair: { maxLost: 4 / 6, meanLost: 4 / 6, worstPair: ["c1", "c2"] },
        worstLost: 4 / 6,
      });
    });

    await t.step("a stale cell's tenants count as without a live owner", async () => {
      cells[2]!.stop();
      await eventually(
        async () => (await radius("customers")).executors === "2",
        10_000,
        "c3 stale",
      );
      const r = await radius("customers");
      assert.equal(r.unownedShards, "2");
      assert.equal(r.singleMaxLost, 2 / 6);
      assert.equal(r.pairMaxLost, 4 / 6);
    });

    await t.step("a fixed namespace without executors has every shard unowned", async () => {
      const r = await radius("orders");
      assert.equal(r.shards, "4");
      assert.equal(r.unownedShards, "4");
      assert.equal(r.worstLost, 0);
      assert.equal(await codeOf(radius("nope")), grpc.status.NOT_FOUND);
      const missing = await smctl([
        "--address",
        address,
        "-n",
        "nope",
        "namespace",
        "blast-radius",
      ]);
      assert.equal(missing.code, 3);
    });
  } finally {
    for (const cell of cells) cell.stop();
    clients.close();
    await instance.stop();
  }
});
