/**
 * The cold-start wait against real etcd and gRPC: a namespace that never had
 * an owner (a first deploy) waits for its executors to stop joining, then
 * places each shard once; a namespace that had owners is never held (a leader
 * failover with its whole fleet replaced); a trickle of joins cannot hold
 * placement past `coldStartWait`; `coldStartWait: 0s` turns it off.
 * Placements are counted from the executors' own heartbeat answers.
 */
import assert from "node:assert/strict";
import type { RunningInstance } from "../src/app.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { type Clients, connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors, type SimExecutor } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const gained = (executors: readonly SimExecutor[]) => executors.reduce((n, e) => n + e.gained, 0);
const owned = (executors: readonly SimExecutor[]) =>
  executors.reduce((n, e) => n + e.shards.length, 0);

/** Starts `id` and waits for its first answered heartbeat; returns when that was. */
async function join(clients: Clients, executors: SimExecutor[], id: string): Promise<number> {
  const [executor] = runExecutors(clients, "ns", [id], { intervalMs: 200 });
  executors.push(executor!);
  await eventually(() => executor!.beats > 0, 2_000, `${id} up`);
  return performance.now();
}

Deno.test("cold start: by default, executors joining one by one onto a new namespace get each shard placed once", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("cold-default"),
    // The service's defaults: settleWindow 3s, coldStartWait 30s.
    namespaces: [{ name: "ns", type: "fixed", shardNum: 30 }],
    serviceColdStartWait: true,
  }));
  const clients = connect(instance.server.address);
  const executors: SimExecutor[] = [];
  try {
    // Five executors over about a second, as a deployment brings them up.
    let lastJoined = 0;
    for (const id of ["a", "b", "c", "d", "e"]) {
      lastJoined = await join(clients, executors, id);
      await sleep(250);
    }
    assert.equal(owned(executors), 0, "nothing is placed while the fleet still grows");
    await eventually(
      () => executors.every((e) => e.shards.length === 6),
      10_000,
      () => `6 shards each, got ${executors.map((e) => e.shards.length)}`,
    );
    const waited = performance.now() - lastJoined;
    assert.ok(waited >= 2_000, `placed ${Math.round(waited)} ms after the last join`);
    assert.equal(gained(executors), 30, "each shard placed once");
    await sleep(1_500);
    assert.equal(gained(executors), 30, "and not moved afterwards");
  } finally {
    await Promise.all(executors.map((e) => e.stop()));
    clients.close();
    await instance.stop();
  }
});

Deno.test("cold start: a namespace that had owners is not held after a leader failover, even with its whole fleet replaced", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("cold-failover"),
    // A long window: a held placement would come at least 6 s after the newcomer joined.
    namespaces: [{
      name: "ns",
      type: "fixed",
      shardNum: 12,
      settleWindow: "6s",
      coldStartWait: "20s",
    }],
  });
  const instances: RunningInstance[] = [
    await startInProcess(yaml, "i1"),
    await startInProcess(yaml, "i2"),
  ];
  const clients = instances.map((i) => connect(i.server.address));
  const executors: SimExecutor[] = [];
  const replacement: SimExecutor[] = [];
  try {
    await join(clients[0]!, executors, "a");
    await join(clients[1]!, executors, "b");
    await eventually(() => owned(executors) === 12, 10_000, "the first placement");
    await eventually(
      () => instances.some((i) => i.manager.routing.isLeading("ns")),
      5_000,
      "a leader",
    );
    const leader = instances.findIndex((i) => i.manager.routing.isLeading("ns"));
    const survivor = instances[1 - leader]!;
    // The whole fleet is lost, and the leader stops (it resigns: the other one leads).
    await Promise.all(executors.map((e) => e.stop()));
    await instances.splice(leader, 1)[0]!.stop();
    const joined = await join(clients[1 - leader]!, replacement, "c");
    await eventually(
      () => replacement[0]!.shards.length === 12,
      10_000,
      "c to get every shard",
    );
    const after = performance.now() - joined;
    // The lost owners' shards wait only for the executors to expire (heartbeatTTL 2s).
    assert.ok(after < 4_500, `c got every shard ${Math.round(after)} ms after joining`);
    assert.ok(survivor.manager.routing.isLeading("ns"));
  } finally {
    await Promise.all([...executors, ...replacement].map((e) => e.stop()));
    for (const c of clients) c.close();
    await Promise.all(instances.map((i) => i.stop()));
  }
});

Deno.test("cold start: a trickle of joins cannot hold placement past coldStartWait", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("cold-bound"),
    namespaces: [{
      name: "ns",
      type: "fixed",
      shardNum: 20,
      settleWindow: "3s",
      coldStartWait: "2s",
    }],
  }));
  const clients = connect(instance.server.address);
  const executors: SimExecutor[] = [];
  try {
    // One executor every 500 ms, within the settling window: the fleet never stops joining.
    const first = await join(clients, executors, "e0");
    let placedAt = NaN;
    let joinedThen = 0;
    for (let i = 1; i < 12 && Number.isNaN(placedAt); i++) {
      const until = performance.now() + 500;
      while (performance.now() < until) {
        if (owned(executors) === 20) {
          placedAt = performance.now();
          joinedThen = executors.length;
          break;
        }
        await sleep(25);
      }
      if (Number.isNaN(placedAt)) await join(clients, executors, `e${i}`);
    }
    assert.ok(!Number.isNaN(placedAt), "every shard placed while executors still joined");
    const after = placedAt - first;
    assert.ok(
      after >= 1_500 && after < 3_500,
      `placed ${Math.round(after)} ms after the first join`,
    );
    assert.ok(joinedThen < 12, `placed when ${joinedThen} executors had joined`);
  } finally {
    await Promise.all(executors.map((e) => e.stop()));
    clients.close();
    await instance.stop();
  }
});

Deno.test("cold start: coldStartWait 0s places a new namespace's shards at once", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("cold-off"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 12, coldStartWait: "0s" }],
    serviceColdStartWait: true,
  }));
  const clients = connect(instance.server.address);
  const executors: SimExecutor[] = [];
  try {
    const joined = await join(clients, executors, "a");
    await eventually(() => executors[0]!.shards.length === 12, 5_000, "a owns all");
    const after = performance.now() - joined;
    // The settling window (3s by default) would hold it; placed at the next pass instead.
    assert.ok(after < 2_000, `placed ${Math.round(after)} ms after a joined`);
  } finally {
    await Promise.all(executors.map((e) => e.stop()));
    clients.close();
    await instance.stop();
  }
});
