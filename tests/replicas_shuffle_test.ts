/**
 * A shuffle-sharded namespace against a real etcd, a real service process and
 * executors heartbeating over gRPC: the seed's arithmetic (8 workers, shards
 * of 2, no two sharing more than 1 → the 28 pairs, a pair blast radius of
 * 1/28), then a 29th shard for which the bound is infeasible, which is
 * reported in the leader's log, in the metrics and in the blast radius.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { call, connect, executorsSeen } from "./support/grpc_clients.ts";
import { freePort } from "./support/ports.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";
import type {
  GetBlastRadiusResponse__Output,
  GetShardOwnerResponse__Output,
} from "../src/wire/proto.ts";

const NS = "tenants";
const WORKERS = Array.from({ length: 8 }, (_, i) => `w-${i}`);

Deno.test("shuffle: the 28 pairs on 8 workers, then an infeasible bound reported", async (t) => {
  await using etcd = await startEtcd();
  const port = freePort();
  const httpPort = freePort();
  const address = `127.0.0.1:${port}`;
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("replicas-shuffle"),
    namespaces: [{
      name: NS,
      type: "ephemeral",
      replicas: 2,
      placement: "shuffle",
      maxOverlap: 1,
    }],
  }).replace("grpcAddress: 127.0.0.1:0", `grpcAddress: ${address}`)
    .replace("httpAddress: 127.0.0.1:0", `httpAddress: 127.0.0.1:${httpPort}`);
  const service = await startProcess(yaml, "sm-1");
  const clients = connect(address);
  const workers = runExecutors(clients, NS, WORKERS, { intervalMs: 200 });
  const owners = async (tenant: string) =>
    (await call<unknown, GetShardOwnerResponse__Output>(clients.api, "getShardOwner", {
      namespace: NS,
      shardKey: tenant,
    })).owners.map((o) => o.executorId);
  const radius = () =>
    call<unknown, GetBlastRadiusResponse__Output>(clients.api, "getBlastRadius", { namespace: NS });
  const metric = async (figure: string) => {
    const text = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
    const line = text.split("\n").find((l) =>
      l.startsWith(`sm_placement{namespace="${NS}",figure="${figure}"}`)
    );
    return line === undefined ? undefined : Number(line.split(" ").at(-1));
  };

  try {
    await eventually(() => workers.every((w) => w.beats > 0), 15_000, "workers beat");
    // The leader (the only instance) sees every worker before the first tenant is placed.
    await eventually(
      async () =>
        [...(await executorsSeen(clients, NS)).values()].filter((e) => e.alive).length === 8,
      10_000,
      "the service to see all 8 workers",
    );
    const tenants = Array.from({ length: 28 }, (_, i) => `tenant-${i}`);
    const sets = new Map<string, string[]>();

    await t.step("28 tenants get the 28 distinct pairs, 7 per worker", async () => {
      for (const tenant of tenants) sets.set(tenant, await owners(tenant));
      const pairs = [...sets.values()].map((set) => [...set].sort().join("+"));
      assert.ok([...sets.values()].every((set) => set.length === 2 && set[0] !== set[1]));
      assert.equal(new Set(pairs).size, 28, "no two tenants share both workers");
      for (const worker of WORKERS) {
        assert.equal([...sets.values()].filter((s) => s.includes(worker)).length, 7, worker);
      }
      await eventually(
        () =>
          workers.every((w) =>
            w.shards.length === 7 && w.shards.every((s) => sets.get(s)?.includes(w.id))
          ),
        5_000,
        "every worker is told its 7 tenants",
      );
    });

    await t.step("GetBlastRadius: one failure loses nothing, a pair 1/28", async () => {
      const r = await radius();
      assert.equal(r.shards, "28");
      assert.equal(r.executors, "8");
      assert.equal(r.fewestOwners, 2);
      assert.equal(r.singleMaxLost, 0);
      assert.equal(r.singleMaxDegraded, 7 / 28);
      assert.equal(r.pairMaxLost, 1 / 28);
      assert.equal(r.pairMeanLost, 1 / 28);
      assert.equal(r.worstLost, 1 / 28);
      assert.equal(r.maxOverlap, 1);
      assert.equal(r.shardsOverBound, "0");
      assert.equal(r.ownerSetCombinations, "28", "C(8, 2): as many pairs as tenants");
      await eventually(async () => (await metric("shards_over_bound")) === 0, 5_000, "metrics");
      assert.equal(await metric("max_overlap"), 1);
      assert.equal(await metric("short_shards"), 0);
    });

    await t.step("a 29th tenant cannot keep the bound: it is reported, not hidden", async () => {
      const set = await owners("tenant-28");
      assert.equal(set.length, 2);
      const twin = tenants.find((t) =>
        [...sets.get(t)!].sort().join("+") === [...set].sort().join("+")
      );
      assert.ok(twin, "the 29th pair repeats one of the 28");
      await eventually(async () => (await metric("shards_over_bound")) === 2, 5_000, "metric");
      assert.equal(await metric("max_overlap"), 2);
      await eventually(
        () =>
          /owner sets fall short of the placement asked for.*"shardsOverBound":2/.test(
            service.logs(),
          ),
        5_000,
        "the leader's warning",
      );
      const r = await radius();
      assert.equal(r.shards, "29");
      assert.equal(r.pairMaxLost, 2 / 29, "the repeated pair loses both tenants");
      assert.equal(r.maxOverlap, 2);
      assert.equal(r.shardsOverBound, "2");
    });
  } finally {
    await Promise.all(workers.map((w) => w.stop())); // no heartbeat in flight at close
    clients.close();
    await service.kill();
  }
});
