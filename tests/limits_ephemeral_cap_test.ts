// deno-lint-ignore-file no-console -- the measured figures are printed for whoever runs the test
/**
 * The per-namespace cap on ephemeral shards, end to end: a flood of
 * GetShardOwner calls for new keys against a real service on a real etcd.
 */
import assert from "node:assert/strict";
import { Etcd3 } from "etcd3";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, type Clients, connect, grpc, heartbeat } from "./support/grpc_clients.ts";
import { eventually } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type { GetShardOwnerResponse__Output, HeartbeatRequest } from "../src/wire/proto.ts";

const CAP = 20;
const FLOOD = 300;

/** An executor that reports READY for its shards, or DONE for those in `done`. */
function executorLoop(clients: Clients, namespace: string, id: string) {
  const done = new Set<string>();
  let shards: string[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const reports: NonNullable<HeartbeatRequest["shardStatusReports"]> = {};
      for (const shard of shards) {
        reports[shard] = {
          status: done.has(shard) ? "SHARD_STATUS_DONE" : "SHARD_STATUS_READY",
          shardLoad: 1,
        };
      }
      try {
        const res = await heartbeat(clients, {
          namespace,
          executorId: id,
          status: "EXECUTOR_STATUS_ACTIVE",
          shardStatusReports: reports,
        });
        shards = Object.keys(res.shardAssignments);
      } catch { /* retry on the next beat */ }
      await new Promise((r) => setTimeout(r, 150)); // the heartbeat interval
    }
  })();
  return {
    done,
    shards: () => shards,
    stop: () => {
      stopped = true;
      return loop;
    },
  };
}

function getOwner(clients: Clients, shardKey: string) {
  return call<unknown, GetShardOwnerResponse__Output>(clients.api, "getShardOwner", {
    namespace: "eph",
    shardKey,
  });
}

async function flood(clients: Clients, keys: readonly string[]) {
  const results = await Promise.all(keys.map((key) =>
    getOwner(clients, key).then(
      () => "OK",
      (e: grpc.ServiceError) => grpc.status[e.code] ?? String(e.code),
    )
  ));
  const counts: Record<string, number> = {};
  for (const r of results) counts[r] = (counts[r] ?? 0) + 1;
  return { results, counts };
}

Deno.test("a flood of new ephemeral keys stops at the namespace cap with RESOURCE_EXHAUSTED, and capacity returns when shards are DONE", async () => {
  const etcd = await startEtcd();
  const prefix = uniquePrefix("limits-cap");
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix,
    namespaces: [{ name: "eph", type: "ephemeral", maxShards: CAP }],
  }));
  const clients = connect(instance.server.address);
  const etcdClient = new Etcd3({ hosts: etcd.endpoints });
  const requestKeys = new Set<string>();
  const watcher = await etcdClient.watch().prefix(`${prefix}/store/`).create();
  watcher.on("put", (kv) => {
    const key = kv.key.toString();
    if (key.includes("/requests/")) requestKeys.add(key);
  });
  const executor = executorLoop(clients, "eph", "a");
  try {
    await eventually(
      async () => {
        try {
          await getOwner(clients, "warm-up");
          return true;
        } catch {
          return false;
        }
      },
      15_000,
      "the first ephemeral shard is placed",
    );

    const keys = Array.from({ length: FLOOD }, (_, i) => `flood-${i}`);
    const first = await flood(clients, keys);
    console.log(`flood of ${FLOOD} new keys with a cap of ${CAP}:`, first.counts);
    assert.deepEqual(Object.keys(first.counts).sort(), ["OK", "RESOURCE_EXHAUSTED"]);
    assert.equal(first.counts.OK, CAP - 1, "warm-up plus the admitted keys fill the cap exactly");
    assert.ok(requestKeys.size <= CAP, `${requestKeys.size} request keys written to etcd`);
    const rejected = await getOwner(clients, "one-more").catch((e: grpc.ServiceError) => e);
    assert.ok(rejected instanceof Error);
    assert.equal(rejected.code, grpc.status.RESOURCE_EXHAUSTED);
    assert.match(rejected.details, /"eph" is at its shard cap of 20 \(maxShards\)/);

    // Every key already held is still answered, and by the same owner.
    const admitted = keys.filter((_, i) => first.results[i] === "OK");
    for (const key of ["warm-up", ...admitted]) {
      assert.equal((await getOwner(clients, key)).owner, "a");
    }
    const storeKeys = await etcdClient.getAll().prefix(`${prefix}/store/`).keys();
    console.log(`etcd keys under the store prefix after the flood: ${storeKeys.length}`);
    assert.ok(storeKeys.length < CAP + 30, `etcd holds ${storeKeys.length} keys`);

    // Finishing five shards (DONE) frees five places once the leader removes them.
    await eventually(
      () => admitted.every((k) => executor.shards().includes(k)),
      15_000,
      "the executor holds every admitted shard",
    );
    for (const key of admitted.slice(0, 5)) executor.done.add(key);
    await eventually(
      () => admitted.slice(0, 5).every((k) => !executor.shards().includes(k)),
      15_000,
      "the DONE shards are removed",
    );
    const second = await flood(clients, Array.from({ length: 50 }, (_, i) => `second-${i}`));
    console.log("after 5 shards were DONE, a flood of 50 new keys:", second.counts);
    assert.equal(second.counts.OK, 5);
    assert.equal(second.counts.RESOURCE_EXHAUSTED, 45);
  } finally {
    await executor.stop();
    await watcher.cancel();
    etcdClient.close();
    clients.close();
    await instance.stop();
    await etcd.close();
  }
});
