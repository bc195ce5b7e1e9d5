/**
 * Issue 16, case 1: a drain reported as failed was applied later and emptied
 * the fleet. Here etcd is paused (SIGSTOP) while an operator drains both
 * executors of a namespace, each drain giving up on its caller; when etcd
 * comes back at most one of them lands, because the disruption budget is
 * checked again in the store's transaction. Also: request ids apply once,
 * the budget names its numbers, --force and --dry-run.
 */
import assert from "node:assert/strict";
import { startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { call, connect, grpc } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { json, smctl } from "./support/smctl.ts";
import type { ListExecutorDrainsResponse__Output } from "../src/wire/proto.ts";

async function setup(name: string) {
  const etcd = await startEtcdCluster(1);
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix(name),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 12 }],
    process: { heartbeatTTL: "60s" },
    electionTTL: "30s",
  }));
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b"], { intervalMs: 200 });
  const owned = () => executors.reduce((sum, e) => sum + e.shards.length, 0);
  await eventually(
    () => executors.every((e) => e.shards.length > 0) && owned() === 12,
    15_000,
    "both executors hold shards",
  );
  const address = instance.server.address;
  return {
    etcd,
    executors,
    clients,
    owned,
    run: (args: string[]) => smctl(["--address", address, "-n", "ns", ...args]),
    drains: async () =>
      (await call<unknown, ListExecutorDrainsResponse__Output>(
        clients.api,
        "listExecutorDrains",
        { namespace: "ns" },
      )).drains.map((d) => d.id),
    async [Symbol.asyncDispose]() {
      await Promise.all(executors.map((e) => e.stop()));
      clients.close();
      await instance.stop();
      await etcd.close();
    },
  };
}

Deno.test("case 1: drains queued during an etcd outage land at most within the budget", async () => {
  await using fx = await setup("ops-case1-outage");
  const member = fx.etcd.members[0]!;
  await member.kill("SIGSTOP");
  let resumed = false;
  try {
    for (const id of ["a", "b"]) {
      const result = await fx.run(["--timeout", "1s", "executor", "drain", id, "--reason", "r"]);
      assert.equal(result.code, 4, result.stderr);
      assert.match(result.stderr, /may still be applied/);
      assert.match(result.stderr, /check with: smctl -n ns executor drains\n$/);
      assert.match(result.stderr, /retrying with the same request id/);
    }
    await member.kill("SIGCONT");
    resumed = true;
  } finally {
    if (!resumed) await member.kill("SIGCONT");
  }
  // The queued writes land (the first drain) or are refused in the store's
  // transaction (the second): exactly one drain, and every shard keeps an owner.
  await eventually(async () => (await fx.drains()).length === 1, 30_000, "one drain landed");
  await eventually(
    () => fx.owned() === 12 && fx.executors.some((e) => e.shards.length === 0),
    20_000,
    "the drained executor's shards moved to the other one",
  );
  // Nothing else lands later.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  assert.equal((await fx.drains()).length, 1);
  assert.equal(fx.owned(), 12);
});

Deno.test("case 1: the budget refuses the last executor with the numbers; --force and --dry-run", async () => {
  await using fx = await setup("ops-case1-budget");

  const preview = await fx.run(["executor", "drain", "a", "--dry-run"]);
  assert.equal(preview.code, 0, preview.stderr);
  const shardsOfA = fx.executors[0]!.shards.length;
  assert.match(preview.stdout, new RegExp(`^Dry run: drain id:a would move ${shardsOfA} shard`));
  assert.match(preview.stdout, /^SHARD +FROM +TO$/m);
  assert.match(preview.stdout, /^\d+ +a +b$/m);
  assert.deepEqual(await fx.drains(), [], "a dry run stores nothing");

  assert.equal((await fx.run(["executor", "drain", "a"])).code, 0);
  const refused = await fx.run(["executor", "drain", "b"]);
  assert.equal(refused.code, 5, refused.stderr);
  assert.match(
    refused.stderr,
    /drain 2 of 2 live executors \(100%\), more than maxDrainedShare 50%/,
  );
  assert.match(refused.stderr, /leave 12 shards with no eligible owner/);
  assert.match(refused.stderr, /--force/);
  const dryRefused = await fx.run(["executor", "drain", "b", "--dry-run"]);
  assert.equal(dryRefused.code, 5, "a dry run is checked as a real drain");
  assert.deepEqual(await fx.drains(), ["id:a"]);

  const forced = await fx.run(["executor", "drain", "b", "--force", "--json"]);
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal(json<{ drain: { id: string } }>(forced).drain.id, "id:b");
  assert.deepEqual((await fx.drains()).sort(), ["id:a", "id:b"]);
});

Deno.test("case 1: a request id is applied once", async () => {
  await using fx = await setup("ops-case1-request-id");
  const drain = (requestId: string) =>
    call(fx.clients.api, "drainExecutors", { namespace: "ns", executorId: "a", requestId });
  const undrain = (requestId: string) =>
    call(fx.clients.api, "undrainExecutors", { namespace: "ns", executorId: "a", requestId });
  await drain("req-1");
  assert.deepEqual(await fx.drains(), ["id:a"]);
  await undrain("req-2");
  assert.deepEqual(await fx.drains(), []);
  // A late retry of the first call must not drain again.
  await drain("req-1");
  assert.deepEqual(await fx.drains(), [], "a repeated request id is not applied again");
  await drain("req-3");
  assert.deepEqual(await fx.drains(), ["id:a"]);

  // Shard drains too.
  const shardDrain = (requestId: string) =>
    call<unknown, { drainedShardKeys: string[] }>(fx.clients.api, "drainShards", {
      namespace: "ns",
      shardKeys: ["4"],
      requestId,
    });
  await shardDrain("s-1");
  await call(fx.clients.api, "undrainShards", { namespace: "ns", shardKeys: ["4"] });
  await shardDrain("s-1");
  const drained = await call<unknown, { shardKeys: string[] }>(
    fx.clients.api,
    "getDrainedShards",
    { namespace: "ns" },
  );
  assert.deepEqual(drained.shardKeys, []);

  const tooLong = await call(fx.clients.api, "drainShards", {
    namespace: "ns",
    shardKeys: ["4"],
    requestId: "x".repeat(200),
  }).then(() => "ok", (e: grpc.ServiceError) => e.code);
  assert.equal(tooLong, grpc.status.INVALID_ARGUMENT);
});
