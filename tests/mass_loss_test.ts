/**
 * Capacity and the mass-loss brake against real etcd and gRPC (issue 41):
 * 6 of 10 executors stop heartbeating at once; no survivor ever holds more
 * than its capacity, the unowned shards are reported within a pass, and when
 * the 6 return everything is owned again within one settling window with no
 * more owner changes than shards were unowned. A planned drain of 60% never
 * trips the brake, and an operator lifts it with smctl.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors, type SimExecutor } from "./support/executors.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { startInProcess, startProcess, testConfigYaml } from "./support/service.ts";
import { historyOf } from "./support/history.ts";
import { smctl } from "./support/smctl.ts";
import type { RunningInstance } from "../src/app.ts";

const IDS = Array.from({ length: 10 }, (_, i) => `e${i}`);
const SHARDS = 40;
const TTL_MS = 2_000;
const PERIOD_MS = 500;
const SETTLE_MS = 3_000;

/** Follows every picture the instance publishes: owners per shard, and the most any executor held. */
function follow(instance: RunningInstance, namespace: string) {
  const stop = new AbortController();
  const owners = new Map<string, string>();
  let changes = 0;
  let most = new Map<string, number>();
  const done = (async () => {
    const pictures = instance.manager.routing.watchNamespace(namespace, stop.signal);
    for await (const picture of pictures) {
      const next = new Map<string, string>();
      for (const e of picture.executors) {
        for (const shard of e.shards) next.set(shard, e.executorId);
        most.set(e.executorId, Math.max(most.get(e.executorId) ?? 0, e.shards.length));
      }
      for (const [shard, owner] of next) if (owners.get(shard) !== owner) changes++;
      owners.clear();
      for (const [shard, owner] of next) owners.set(shard, owner);
    }
  })().catch(() => {});
  return {
    owned: () => owners.size,
    /** Owner changes (placements included) seen since the last reset. */
    changes: () => changes,
    resetChanges: () => void (changes = 0),
    /** The most shards each executor held in any picture since the last reset. */
    most: () => most,
    resetMost: () => void (most = new Map()),
    async close() {
      stop.abort();
      await done;
    },
  };
}

/** `name`'s value for `namespace` in the instance's /metrics. */
async function gauge(instance: RunningInstance, name: string, namespace: string) {
  const text = await (await fetch(`http://${instance.http.address}/metrics`)).text();
  const match = text.match(new RegExp(`^${name}\\{namespace="${namespace}"\\} (\\S+)$`, "m"));
  return match ? Number(match[1]) : NaN;
}

async function stopAll(executors: readonly SimExecutor[]) {
  await Promise.all(executors.map((e) => e.stop()));
}

Deno.test("6 of 10 executors lost: survivors stay within capacity, the rest is unowned, and the return places it without churn", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(
    testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("mass-loss"),
      namespaces: [{
        name: "ns",
        type: "fixed",
        shardNum: SHARDS,
        executorCapacity: { shards: 6 },
        settleWindow: `${SETTLE_MS / 1000}s`,
      }],
      process: { heartbeatTTL: `${TTL_MS / 1000}s`, period: `${PERIOD_MS}ms` },
    }),
    "sm-1",
  );
  const clients = connect(instance.server.address);
  const picture = follow(instance, "ns");
  let executors = runExecutors(clients, "ns", IDS, { intervalMs: 200 });
  try {
    await eventually(() => picture.owned() === SHARDS, 20_000, "all 40 shards owned");
    // Balanced at 4 each once the fleet settled.
    await eventually(
      () => executors.every((e) => e.shards.length === 4),
      20_000,
      () => `4 shards each (now ${executors.map((e) => e.shards.length).join("/")})`,
    );
    picture.resetMost();

    // Six stop heartbeating at once.
    const lost = executors.slice(0, 6);
    const survivors = executors.slice(6);
    const stoppedAt = performance.now();
    await stopAll(lost);
    await eventually(
      async () => await gauge(instance, "sm_brake_engaged", "ns") === 1,
      TTL_MS + 5_000,
      "the brake engaged",
    );
    // Reported within a pass of the executors going stale: heartbeatTTL, then a pass
    // (period, plus slack for a loaded machine).
    await eventually(
      async () => await gauge(instance, "sm_shards_unowned", "ns") === SHARDS - 24,
      TTL_MS + 2 * PERIOD_MS + 3_000,
      "16 shards reported unowned",
    );
    const reportedMs = performance.now() - stoppedAt;
    assert.ok(reportedMs < TTL_MS + 2 * PERIOD_MS + 3_000, `reported after ${reportedMs} ms`);
    // Hold a few passes: the survivors stay at their capacity.
    await new Promise((r) => setTimeout(r, 4 * PERIOD_MS));
    assert.equal(picture.owned(), 24);
    for (const e of survivors) assert.equal(e.shards.length, 6, `${e.id} at its capacity`);
    for (const [id, most] of picture.most()) {
      assert.ok(most <= 6, `${id} held ${most} shards, above its capacity of 6`);
    }
    const [engaged] = await historyOf(instance.manager.history, "ns", "brake_engaged");
    assert.match(engaged?.text ?? "", /6 of 10 serving executors lost/);

    // The six return.
    const unowned = SHARDS - picture.owned();
    picture.resetChanges();
    const returnedAt = performance.now();
    executors = [
      ...survivors,
      ...runExecutors(clients, "ns", IDS.slice(0, 6), { intervalMs: 200 }),
    ];
    await eventually(() => picture.owned() === SHARDS, SETTLE_MS + 5_000, "all owned again");
    const ownedMs = performance.now() - returnedAt;
    assert.ok(ownedMs <= SETTLE_MS, `all owned ${Math.round(ownedMs)} ms after the return`);
    // Within one settling window of the return (counted from the first returner's join).
    await new Promise((r) => setTimeout(r, Math.max(0, SETTLE_MS - ownedMs - 500)));
    assert.ok(
      picture.changes() <= unowned,
      `${picture.changes()} owner changes for ${unowned} unowned shards`,
    );
    for (const [id, most] of picture.most()) assert.ok(most <= 6, `${id} held ${most}`);
    await eventually(
      async () => await gauge(instance, "sm_brake_engaged", "ns") === 0,
      5_000,
      "the brake released",
    );
    const [released] = await historyOf(instance.manager.history, "ns", "brake_released");
    assert.equal(released?.reason, "executors_returned");
  } finally {
    await stopAll(executors);
    await picture.close();
    clients.close();
    await instance.stop();
  }
});

Deno.test("a planned drain of 60% of the executors never trips the mass-loss brake", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(
    testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("mass-loss-drain"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: SHARDS, maxDrainedShare: 0.6 }],
      process: { heartbeatTTL: `${TTL_MS / 1000}s`, period: `${PERIOD_MS}ms` },
    }),
    "sm-1",
  );
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", IDS, {
    intervalMs: 200,
    metadata: (id) => ({ group: IDS.indexOf(id) < 6 ? "old" : "new" }),
  });
  try {
    await eventually(
      () => new Set(executors.flatMap((e) => e.shards)).size === SHARDS,
      20_000,
      "all owned",
    );
    // The disruption budget allows 60%: the drain is the budget's own decision.
    await call(clients.api, "drainExecutors", { namespace: "ns", selector: { group: "old" } });
    const drained = executors.slice(0, 6);
    await eventually(
      () => drained.every((e) => e.shards.length === 0),
      15_000,
      "the drained executors hold nothing",
    );
    // Then they stop (a deploy takes them down) and go stale.
    await stopAll(drained);
    await new Promise((r) => setTimeout(r, 2 * TTL_MS + 3 * PERIOD_MS));
    assert.equal(await gauge(instance, "sm_brake_engaged", "ns"), 0);
    assert.equal(await gauge(instance, "sm_shards_unowned", "ns"), 0);
    const types = (await instance.manager.history.read("ns")).map((e) => e.type);
    assert.ok(!types.includes("brake_engaged"), `history: ${types.join(", ")}`);
  } finally {
    await stopAll(executors);
    clients.close();
    await instance.stop();
  }
});

Deno.test("smctl namespace brake lift releases the brake, and the survivors take the rest", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(
    testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("mass-loss-lift"),
      // Three of four lost: the default minLost (3) and share (more than half) both met.
      namespaces: [{ name: "ns", type: "fixed", shardNum: 20 }],
      process: { heartbeatTTL: `${TTL_MS / 1000}s`, period: `${PERIOD_MS}ms` },
    }),
    "sm-1",
  );
  const address = instance.server.address;
  const clients = connect(address);
  const executors = runExecutors(clients, "ns", IDS.slice(0, 4), { intervalMs: 200 });
  try {
    await eventually(
      () => executors.every((e) => e.shards.length === 5),
      20_000,
      "5 shards each",
    );
    const notEngaged = await smctl(["--address", address, "namespace", "brake", "lift", "ns"]);
    assert.equal(notEngaged.code, 0, notEngaged.stderr);
    assert.match(notEngaged.stdout, /is not engaged/);

    // Three of four lost: with no capacity set, the survivor takes no more than twice its share
    // of the fleet before the loss (2 × 5 = 10) once the brake holds.
    await stopAll(executors.slice(0, 3));
    await eventually(
      async () => await gauge(instance, "sm_brake_engaged", "ns") === 1,
      TTL_MS + 5_000,
      "the brake engaged",
    );
    await eventually(
      async () => await gauge(instance, "sm_shards_unowned", "ns") > 0,
      5_000,
      "shards left unowned",
    );
    await new Promise((r) => setTimeout(r, 3 * PERIOD_MS));
    assert.ok(await gauge(instance, "sm_shards_unowned", "ns") > 0, "they stay unowned");
    const lifted = await smctl([
      "--address",
      address,
      "--json",
      "namespace",
      "brake",
      "lift",
      "ns",
    ]);
    assert.equal(lifted.code, 0, lifted.stderr);
    assert.deepEqual(JSON.parse(lifted.stdout), { namespace: "ns", lifted: true });
    await eventually(
      () => executors[3]!.shards.length === 20,
      10_000,
      "the survivor took the rest",
    );
    assert.equal(await gauge(instance, "sm_brake_engaged", "ns"), 0);
    const [release] = await historyOf(instance.manager.history, "ns", "brake_released");
    assert.equal(release?.reason, "lifted");
    assert.match(release?.actor ?? "", /anonymous/);
  } finally {
    await stopAll(executors);
    clients.close();
    await instance.stop();
  }
});

Deno.test("LiftBrake sent to an instance that does not lead is forwarded to the leader", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("mass-loss-forward"),
    namespaces: [
      { name: "ns", type: "fixed", shardNum: 4 },
      { name: "cells", type: "ephemeral", mode: "cells" },
    ],
  });
  const instances = [await startInProcess(yaml, "sm-1"), await startInProcess(yaml, "sm-2")];
  try {
    let follower: RunningInstance | undefined;
    await eventually(
      () => {
        const leading = instances.filter((i) => i.manager.routing.isLeading("ns"));
        follower = instances.find((i) => !i.manager.routing.isLeading("ns"));
        return leading.length === 1;
      },
      10_000,
      "one leader",
    );
    const address = follower!.server.address;
    const answer = await smctl([
      "--address",
      address,
      "--json",
      "namespace",
      "brake",
      "lift",
      "ns",
    ]);
    assert.equal(answer.code, 0, answer.stderr);
    assert.deepEqual(JSON.parse(answer.stdout), { namespace: "ns", lifted: false });
    // An unknown namespace, and one that has no brake (cells), are refused with the reason.
    const unknown = await smctl(["--address", address, "namespace", "brake", "lift", "nope"]);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /nope/);
    const cells = await smctl(["--address", address, "namespace", "brake", "lift", "cells"]);
    assert.notEqual(cells.code, 0);
    assert.match(cells.stderr, /has no mass-loss brake/);
  } finally {
    for (const instance of instances) await instance.stop();
  }
});

Deno.test("a leader killed with the executors: the next leader's first pass engages the brake", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("mass-loss-failover"),
    // The dead leader's election lease (5 s) outlives the executors' TTL (2 s): the next leader
    // starts after they went stale, within the brake's window (10 s).
    namespaces: [{ name: "ns", type: "fixed", shardNum: SHARDS, massLoss: { window: "10s" } }],
    process: { heartbeatTTL: `${TTL_MS / 1000}s`, period: `${PERIOD_MS}ms` },
    electionTTL: "5s",
  });
  // The leader runs as a child process (to be SIGKILLed); the survivor in this process.
  const leader = await startProcess(yaml, "sm-1");
  const probe = connect(leader.address);
  await eventually(
    async () => {
      const res = await call<unknown, { leaders: { namespace: string; instanceId: string }[] }>(
        probe.api,
        "listLeaders",
        {},
      );
      return res.leaders.some((l) => l.namespace === "ns" && l.instanceId === "sm-1");
    },
    10_000,
    "sm-1 leads",
  );
  probe.close();
  const survivor = await startInProcess(yaml, "sm-2");
  // Every executor talks to the instance that survives.
  const clients = connect(survivor.server.address);
  const executors = runExecutors(clients, "ns", IDS, { intervalMs: 200 });
  try {
    await eventually(
      () => executors.every((e) => e.shards.length === 4),
      20_000,
      () => `4 shards each (now ${executors.map((e) => e.shards.length).join("/")})`,
    );
    // A zone goes down with six executors and the leading instance. The survivor leads once
    // the dead leader's election lease runs out, by when the six are stale already: its first
    // pass dates their loss from when it last heard them.
    await Promise.all([stopAll(executors.slice(0, 6)), leader.kill("SIGKILL")]);
    await eventually(
      async () => await gauge(survivor, "sm_brake_engaged", "ns") === 1,
      TTL_MS + 10_000,
      "the new leader engaged the brake",
    );
    // No capacity set: a survivor takes at most twice its share of the fleet before the loss
    // (2 × 4 = 8) once the brake holds, so the rest of the lost executors' shards stay unowned
    // instead of more than doubling the survivors' load.
    await new Promise((r) => setTimeout(r, 2 * PERIOD_MS));
    const held = executors.slice(6).map((e) => e.shards.length);
    const unowned = await gauge(survivor, "sm_shards_unowned", "ns");
    assert.ok(held.every((n) => n <= 8), `survivors hold ${held.join("/")}`);
    assert.ok(unowned >= 8, `${unowned} unowned, survivors hold ${held.join("/")}`);
    await new Promise((r) => setTimeout(r, 4 * PERIOD_MS));
    assert.deepEqual(executors.slice(6).map((e) => e.shards.length), held, "nothing more placed");
    assert.equal(await gauge(survivor, "sm_shards_unowned", "ns"), unowned);
    const [engaged] = await historyOf(survivor.manager.history, "ns", "brake_engaged");
    assert.match(engaged?.text ?? "", /6 of 10 serving executors lost/);
  } finally {
    await stopAll(executors);
    clients.close();
    await survivor.stop();
    if (!leader.exited()) await leader.kill("SIGKILL");
  }
});
