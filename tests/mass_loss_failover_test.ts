/**
 * The mass-loss brake across leaders, against real etcd and gRPC (issue 41's
 * gaps): the brake's state is recorded in the store, so a brake engaged stays
 * engaged after a failover long past the loss, an operator's lift stays lifted
 * after a failover within the loss's window, and an instance that just loaded
 * the namespace does not take executors that were gone before it for a mass
 * loss.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors, type SimExecutor } from "./support/executors.ts";
import { connect } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { smctl } from "./support/smctl.ts";
import type { RunningInstance } from "../src/app.ts";

const IDS = Array.from({ length: 10 }, (_, i) => `e${i}`);
const SHARDS = 40;
const TTL_MS = 2_000;
const PERIOD_MS = 500;

/** `name`'s value for namespace "ns" in the instance's /metrics. */
async function gauge(instance: RunningInstance, name: string): Promise<number> {
  const text = await (await fetch(`http://${instance.http.address}/metrics`)).text();
  const match = text.match(new RegExp(`^${name}\\{namespace="ns"\\} (\\S+)$`, "m"));
  return match ? Number(match[1]) : NaN;
}

async function stopAll(executors: readonly SimExecutor[]): Promise<void> {
  await Promise.all(executors.map((e) => e.stop()));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Two instances: `sm-1` leads (started first), `sm-2` takes the executors'
 * heartbeats and leads once `sm-1` stops. Ten executors, balanced at 4 each.
 */
async function twoInstances(
  endpoints: readonly string[],
  prefix: string,
  massLoss?: Record<string, string>,
) {
  const yaml = testConfigYaml({
    endpoints,
    prefix: uniquePrefix(prefix),
    namespaces: [{
      name: "ns",
      type: "fixed",
      shardNum: SHARDS,
      ...(massLoss ? { massLoss } : {}),
    }],
    process: { heartbeatTTL: `${TTL_MS / 1000}s`, period: `${PERIOD_MS}ms` },
  });
  const leader = await startInProcess(yaml, "sm-1");
  await eventually(() => leader.manager.routing.isLeading("ns"), 10_000, "sm-1 leads");
  const next = await startInProcess(yaml, "sm-2");
  const clients = connect(next.server.address);
  const executors = runExecutors(clients, "ns", IDS, { intervalMs: 200 });
  await eventually(
    () => executors.every((e) => e.shards.length === 4),
    20_000,
    () => `4 shards each (now ${executors.map((e) => e.shards.length).join("/")})`,
  );
  return {
    leader,
    next,
    executors,
    async close() {
      await stopAll(executors);
      clients.close();
      await next.stop();
      await leader.stop();
    },
  };
}

Deno.test("an engaged mass-loss brake still holds after a failover long past the loss", async () => {
  await using etcd = await startEtcd();
  const fleet = await twoInstances(etcd.endpoints, "brake-failover");
  try {
    await stopAll(fleet.executors.slice(0, 6));
    await eventually(
      async () => await gauge(fleet.leader, "sm_brake_engaged") === 1,
      TTL_MS + 5_000,
      "sm-1 engaged the brake",
    );
    // Past the loss's window (2 × TTL): a new leader could not date the loss any more.
    await sleep(2 * TTL_MS + 2_000);
    const unowned = await gauge(fleet.leader, "sm_shards_unowned");
    assert.ok(unowned >= 8, `${unowned} unowned while the brake holds`);
    await fleet.leader.stop();
    await eventually(() => fleet.next.manager.routing.isLeading("ns"), 10_000, "sm-2 leads");
    await eventually(
      async () => await gauge(fleet.next, "sm_brake_engaged") === 1,
      5_000,
      "sm-2 continues the brake",
    );
    // Several passes: the survivors take nothing more, the rest stays unowned.
    await sleep(4 * PERIOD_MS);
    assert.equal(await gauge(fleet.next, "sm_brake_engaged"), 1);
    assert.ok(await gauge(fleet.next, "sm_shards_unowned") >= 8);
    const held = fleet.executors.slice(6).map((e) => e.shards.length);
    assert.ok(held.every((n) => n <= 8), `survivors hold ${held.join("/")}`);
    assert.ok(fleet.next.manager.routing.brake("ns"), "sm-2 holds the brake");
    // smctl shows it, from the new leader.
    const address = fleet.next.server.address;
    const status = await smctl([
      "--address",
      address,
      "--json",
      "namespace",
      "brake",
      "status",
      "ns",
    ]);
    assert.equal(status.code, 0, status.stderr);
    const record = JSON.parse(status.stdout);
    assert.equal(record.state, "engaged");
    assert.match(record.reason, /6 of 10 serving executors lost/);
    assert.deepEqual([record.executorsBefore, record.lostCount], [10, 6]);
    const described = await smctl(["--address", address, "-n", "ns", "namespace", "describe"]);
    assert.match(
      described.stdout,
      /Mass-loss brake\s+ENGAGED since .*: Mass-loss brake engaged: 6 of 10/,
    );
    // And the operator lifts it on the new leader.
    const lifted = await smctl([
      "--address",
      fleet.next.server.address,
      "--json",
      "namespace",
      "brake",
      "lift",
      "ns",
    ]);
    assert.equal(lifted.code, 0, lifted.stderr);
    assert.deepEqual(JSON.parse(lifted.stdout), { namespace: "ns", lifted: true });
    await eventually(
      async () => await gauge(fleet.next, "sm_shards_unowned") === 0,
      10_000,
      "the survivors took the rest",
    );
    const after = await smctl(["--address", address, "namespace", "brake", "status", "ns"]);
    assert.match(after.stdout, /: lifted by anonymous( \(\S+\))? at /);
  } finally {
    await fleet.close();
  }
});

Deno.test("an operator's lift of the mass-loss brake still stands after a failover within the loss's window", async () => {
  await using etcd = await startEtcd();
  // A long window: a new leader would date the six losses within it and engage again.
  const fleet = await twoInstances(etcd.endpoints, "brake-lift-failover", { window: "20s" });
  try {
    await stopAll(fleet.executors.slice(0, 6));
    await eventually(
      async () => await gauge(fleet.leader, "sm_brake_engaged") === 1,
      TTL_MS + 5_000,
      "sm-1 engaged the brake",
    );
    const lifted = await smctl([
      "--address",
      fleet.next.server.address,
      "--json",
      "namespace",
      "brake",
      "lift",
      "ns",
    ]);
    assert.equal(lifted.code, 0, lifted.stderr);
    assert.deepEqual(JSON.parse(lifted.stdout), { namespace: "ns", lifted: true });
    await fleet.leader.stop();
    await eventually(() => fleet.next.manager.routing.isLeading("ns"), 10_000, "sm-2 leads");
    await eventually(
      () => new Set(fleet.executors.slice(6).flatMap((e) => e.shards)).size === SHARDS,
      10_000,
      "the survivors hold every shard",
    );
    await sleep(4 * PERIOD_MS);
    assert.equal(await gauge(fleet.next, "sm_brake_engaged"), 0);
    assert.equal(await gauge(fleet.next, "sm_shards_unowned"), 0);
    const engaged = (await fleet.next.manager.history.read("ns"))
      .filter((e) => e.type === "brake_engaged");
    assert.equal(engaged.length, 1, "engaged once, by sm-1");
  } finally {
    await fleet.close();
  }
});

Deno.test("an instance that just loaded the namespace does not take executors gone before it for a mass loss", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("brake-fresh-leader"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: SHARDS }],
    process: { heartbeatTTL: `${TTL_MS / 1000}s`, period: `${PERIOD_MS}ms` },
  });
  let instance = await startInProcess(yaml, "sm-1");
  let clients = connect(instance.server.address);
  let executors = runExecutors(clients, "ns", IDS, { intervalMs: 200 });
  try {
    await eventually(
      () => new Set(executors.flatMap((e) => e.shards)).size === SHARDS,
      20_000,
      "all owned",
    );
    // Six executors go, two at a time, each pair outside the last one's window (2 × TTL):
    // never a mass loss.
    for (const pair of [[0, 1], [2, 3], [4, 5]]) {
      await stopAll(pair.map((i) => executors[i]!));
      await sleep(2 * TTL_MS + 1_000);
    }
    assert.equal(await gauge(instance, "sm_brake_engaged"), 0);
    // The instance restarts. It reads all ten executors from the store, the six gone ones
    // too (their records are kept for executorRetention), and hears only four again.
    const live = IDS.slice(6);
    await stopAll(executors);
    clients.close();
    await instance.stop();
    instance = await startInProcess(yaml, "sm-1");
    clients = connect(instance.server.address);
    executors = runExecutors(clients, "ns", live, { intervalMs: 200 });
    await eventually(() => instance.manager.routing.isLeading("ns"), 10_000, "it leads");
    // One TTL after the load the six turn stale together: not a loss this instance saw.
    await sleep(TTL_MS + 6 * PERIOD_MS);
    assert.equal(await gauge(instance, "sm_brake_engaged"), 0);
    await eventually(
      () => new Set(executors.flatMap((e) => e.shards)).size === SHARDS,
      10_000,
      "the four live executors hold every shard",
    );
    const types = (await instance.manager.history.read("ns")).map((e) => e.type);
    assert.ok(!types.includes("brake_engaged"), `history: ${types.join(", ")}`);
  } finally {
    await stopAll(executors);
    clients.close();
    await instance.stop();
  }
});
