/**
 * Planned operations move each shard once, against real etcd and gRPC: the
 * settling window while an executor joins, the cold-start wait, a rolling replacement of
 * executors, and a rolling restart of every service instance. Placements are
 * counted from the executors' own heartbeat answers.
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

Deno.test("churn: a joining executor gets no shards by balancing until the settling window has passed", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("churn-settle"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 30, settleWindow: "2500ms" }],
  }));
  const clients = connect(instance.server.address);
  const executors: SimExecutor[] = [];
  try {
    executors.push(...runExecutors(clients, "ns", ["a"], { intervalMs: 200 }));
    // Placing unowned shards is never delayed, even though a has just joined.
    const placedIn = await eventually(
      () => executors[0]!.shards.length === 30,
      2_000,
      "a owns all",
    );
    assert.ok(placedIn < 2_000);
    await sleep(3_000);
    const before = gained(executors);
    executors.push(...runExecutors(clients, "ns", ["b", "c"], { intervalMs: 200 }));
    const joined = performance.now();
    await eventually(() => executors[1]!.beats > 0 && executors[2]!.beats > 0, 2_000, "b, c up");
    await sleep(1_500);
    assert.equal(executors[1]!.shards.length + executors[2]!.shards.length, 0, "no move yet");
    await eventually(
      () => executors.every((e) => e.shards.length === 10),
      10_000,
      "10 shards each",
    );
    assert.ok(performance.now() - joined >= 2_400, "balanced only after the window");
    // The least possible: 20 shards had to move, each once.
    assert.equal(gained(executors) - before, 20);
    await sleep(1_500);
    assert.equal(gained(executors) - before, 20, "nothing moves again");
  } finally {
    await Promise.all(executors.map((e) => e.stop()));
    clients.close();
    await instance.stop();
  }
});

Deno.test("churn: with coldStartWait a cold start places each shard once, on the fleet that arrived", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("churn-cold"),
    namespaces: [{
      name: "ns",
      type: "fixed",
      shardNum: 30,
      settleWindow: "1500ms",
      coldStartWait: "20s",
    }],
  }));
  const clients = connect(instance.server.address);
  const executors: SimExecutor[] = [];
  try {
    // Three executors come up 500 ms apart, as a deployment brings them up.
    for (const id of ["a", "b", "c"]) {
      executors.push(...runExecutors(clients, "ns", [id], { intervalMs: 200 }));
      await eventually(() => executors.at(-1)!.beats > 0, 2_000, `${id} up`);
      await sleep(500);
    }
    const lastJoined = performance.now() - 500;
    assert.equal(owned(executors), 0, "nothing is placed while the fleet still grows");
    await eventually(
      () => executors.every((e) => e.shards.length === 10),
      10_000,
      "10 shards each",
    );
    assert.ok(
      performance.now() - lastJoined >= 900,
      "placed once the window after the last join ended",
    );
    assert.equal(gained(executors), 30, "each shard placed once");
    await sleep(2_000);
    assert.equal(gained(executors), 30, "and not moved afterwards");
  } finally {
    await Promise.all(executors.map((e) => e.stop()));
    clients.close();
    await instance.stop();
  }
});

// Available ownership: the simulated executors do not confirm releases, which
// exclusive handovers need (src/plan/churn_pass_test.ts covers those).
for (const ownership of ["available"] as const) {
  Deno.test(`churn: a rolling replacement moves each shard of a replaced executor once (${ownership})`, async () => {
    await using etcd = await startEtcd();
    const instance = await startInProcess(testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix(`churn-rolling-${ownership}`),
      namespaces: [{ name: "ns", type: "fixed", shardNum: 40, ownership }],
    }));
    const clients = connect(instance.server.address);
    const executors = runExecutors(clients, "ns", ["old0", "old1", "old2", "old3"], {
      intervalMs: 200,
    });
    try {
      await eventually(
        () => executors.every((e) => e.shards.length === 10),
        10_000,
        "10 shards each",
      );
      await sleep(500);
      const before = gained(executors);
      let held = 0;
      for (let i = 0; i < 3; i++) {
        const old = executors[i]!;
        held += old.shards.length;
        // The new one starts; once it has heartbeated, the old one drains, then stops.
        const [fresh] = runExecutors(clients, "ns", [`new${i}`], { intervalMs: 200 });
        executors.push(fresh!);
        await eventually(() => fresh!.beats >= 2, 5_000, `new${i} up`);
        old.status = "EXECUTOR_STATUS_DRAINING";
        await eventually(() => old.shards.length === 0, 10_000, `old${i} drained`);
        await old.stop();
      }
      const live = executors.filter((e) => e.status === "EXECUTOR_STATUS_ACTIVE");
      await eventually(() => owned(live) === 40, 10_000, "all 40 owned by live executors");
      await sleep(4_000); // past the settling window: no second round of moves
      const moves = gained(executors) - before;
      assert.equal(held, 30);
      assert.ok(moves <= 1.2 * held, `${moves} placements for ${held} replaced shards`);
      assert.ok(live.every((e) => e.shards.length === 10), "balanced at the end");
    } finally {
      await Promise.all(executors.map((e) => e.stop()));
      clients.close();
      await instance.stop();
    }
  });
}

Deno.test("churn: a rolling restart of every service instance moves no shard and leaves none unowned", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("churn-restart"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 24 }],
  });
  const instances: RunningInstance[] = [];
  const live: Clients[] = [];
  for (const id of ["i1", "i2", "i3"]) {
    const instance = await startInProcess(yaml, id);
    instances.push(instance);
    live.push(connect(instance.server.address));
  }
  const all = [...live];
  // Each heartbeat goes to an instance that is running at that moment.
  const executors = runExecutors(live[0]!, "ns", ["a", "b", "c", "d"], {
    intervalMs: 200,
    clientFor: (index) => live[(index + Math.floor(Math.random() * 3)) % live.length]!,
  });
  let unownedSeen = 0;
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      if (executors.every((e) => e.beats > 0) && owned(executors) < 24) unownedSeen++;
      await sleep(25);
    }
  })();
  try {
    await eventually(
      () => executors.every((e) => e.shards.length === 6),
      10_000,
      "6 shards each",
    );
    await sleep(1_000);
    const before = gained(executors);
    unownedSeen = 0;
    for (let i = 0; i < 3; i++) {
      // SIGTERM in src/main.ts is this stop: leaderships are resigned at once.
      const client = all[i]!;
      live.splice(live.indexOf(client), 1);
      await sleep(300); // no heartbeat is sent to it any more
      await instances[i]!.stop();
      client.close();
      const restarted = await startInProcess(yaml, `i${i + 1}`);
      instances[i] = restarted;
      const fresh = connect(restarted.server.address);
      all[i] = fresh;
      live.push(fresh);
      await sleep(2_000);
    }
    await sleep(4_000);
    assert.equal(gained(executors) - before, 0, "no shard moved");
    assert.equal(unownedSeen, 0, "no shard was ever unowned");
    assert.ok(executors.every((e) => e.shards.length === 6));
  } finally {
    watching = false;
    await watcher;
    await Promise.all(executors.map((e) => e.stop()));
    for (const c of all) c.close();
    await Promise.all(instances.map((i) => i.stop()));
  }
});
