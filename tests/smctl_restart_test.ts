import assert from "node:assert/strict";
import type { RunningInstance } from "../src/app.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { type Clients, connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors, type SimExecutor } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { json, smctl, tableRows } from "./support/smctl.ts";

/** Two instances on one configuration, and executors a, b, c spread over them. */
async function startAll(yaml: string) {
  const instances = [
    await startInProcess(yaml, "instance-1"),
    await startInProcess(yaml, "instance-2"),
  ];
  const clients = instances.map((i) => connect(i.server.address));
  const executors = runExecutors(clients[0]!, "ns", ["a", "b", "c"], {
    intervalMs: 200,
    clientFor: (index) => clients[index % 2]!,
    metadata: (id) => ({ hostname: `worker-${id}` }),
  });
  const addresses = instances.map((i) => i.server.address);
  return { instances, clients, executors, addresses };
}

async function stopAll(
  all: { instances: RunningInstance[]; clients: Clients[]; executors: SimExecutor[] },
) {
  for (const e of all.executors) e.stop();
  for (const c of all.clients) c.close();
  await Promise.all(all.instances.map((i) => i.stop()));
}

Deno.test("a host drain and a shard drain made with smctl survive a restart of every instance and of the executor", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("smctl-restart"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 12 }],
  });
  let all = await startAll(yaml);
  try {
    const [, , c] = all.executors;
    await eventually(
      () => all.executors.every((e) => e.shards.length > 0),
      15_000,
      "shards everywhere",
    );
    const [first, second] = all.addresses;

    const drain = await smctl([
      "--address",
      second!,
      "-n",
      "ns",
      "executor",
      "drain",
      "c",
      "--wait",
    ]);
    assert.equal(drain.code, 0, drain.stderr);
    const shard = await smctl(["--address", first!, "-n", "ns", "shard", "drain", "5"]);
    assert.equal(shard.code, 0, shard.stderr);
    const holds = (key: string) => all.executors.some((e) => e.shards.includes(key));
    await eventually(() => c!.shards.length === 0 && !holds("5"), 10_000, "c empty, 5 unowned");

    // Everything stops: both instances and every executor, the drained one included.
    await stopAll(all);
    all = await startAll(yaml);
    const [a2, b2, c2] = all.executors;
    const address = all.addresses[1]!;
    await eventually(
      () => a2!.shards.length + b2!.shards.length === 11 && c2!.beats >= 5,
      20_000,
      "a and b to share the 11 undrained shards while c heartbeats",
    );
    assert.deepEqual(c2!.shards, [], "the drained executor gets nothing after the restart");
    assert.ok(!holds("5"), "the drained shard has no owner after the restart");

    const executors = json<
      { executors: { id: string; drained: boolean; drainedBy: string[]; shardCount: number }[] }
    >(
      await smctl(["--address", address, "-n", "ns", "executor", "list", "--json"]),
    ).executors;
    const cState = executors.find((e) => e.id === "c")!;
    assert.equal(cState.drained, true);
    assert.deepEqual(cState.drainedBy, ["id:c"]);
    assert.equal(cState.shardCount, 0);
    const drains = await smctl(["--address", address, "-n", "ns", "executor", "drains"]);
    assert.deepEqual(tableRows(drains.stdout).slice(1).map((r) => [r[0], r.at(-1)]), [[
      "id:c",
      "c",
    ]]);
    assert.deepEqual(
      json(await smctl(["--address", address, "-n", "ns", "shard", "drained", "--json"])),
      { namespace: "ns", shardKeys: ["5"], quarantinedShardKeys: [] },
    );
    const owner = await smctl(["--address", address, "-n", "ns", "shard", "owner", "5"]);
    assert.equal(owner.code, 5, owner.stderr);

    // Undo both; c and shard 5 are back in play.
    assert.equal(
      (await smctl(["--address", address, "-n", "ns", "executor", "undrain", "c"])).code,
      0,
    );
    assert.equal(
      (await smctl(["--address", address, "-n", "ns", "shard", "undrain", "5"])).code,
      0,
    );
    await eventually(() => c2!.shards.length > 0 && holds("5"), 10_000, "c and shard 5 back");
  } finally {
    await stopAll(all);
  }
});
