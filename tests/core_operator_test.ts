import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, codeOf, connect, grpc } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type {
  DrainExecutorsResponse__Output,
  GetExecutorStateResponse__Output,
  InspectShardResponse__Output,
  ListExecutorDrainsResponse__Output,
  ListLeadersResponse__Output,
  UndrainExecutorsResponse__Output,
} from "../src/wire/proto.ts";

Deno.test("executor drains by id and by selector move shards away, catch late executors and survive a restart", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("operator-drains"),
    // Drains two of three executors: allowed past the default budget of half.
    namespaces: [{ name: "ns", type: "fixed", shardNum: 12, maxDrainedShare: 1 }],
  });
  let instance = await startInProcess(yaml);
  let clients = connect(instance.server.address);
  const metadata = (id: string) => ({ hostname: id === "c" || id === "late" ? "w7" : `h-${id}` });
  // Executors follow `clients` across the restart below.
  const current = {
    get api() {
      return clients.api;
    },
    get executor() {
      return clients.executor;
    },
    close() {},
  };
  const executors = runExecutors(current, "ns", ["a", "b", "c"], { intervalMs: 200, metadata });
  const [a, b, c] = executors as [typeof executors[0], typeof executors[0], typeof executors[0]];
  const late: typeof executors = [];
  try {
    await eventually(() => executors.every((e) => e.shards.length === 4), 10_000, "a partition");
    const byId = await call<unknown, DrainExecutorsResponse__Output>(
      clients.api,
      "drainExecutors",
      {
        namespace: "ns",
        executorId: "a",
        reason: "bad disk",
      },
    );
    assert.equal(byId.drain?.id, "id:a");
    assert.deepEqual(byId.drain?.matchedExecutorIds, ["a"]);
    await eventually(() => a.shards.length === 0, 5_000, "a to be emptied");
    const bySelector = await call<unknown, DrainExecutorsResponse__Output>(
      clients.api,
      "drainExecutors",
      { namespace: "ns", selector: { hostname: "w7" } },
    );
    assert.deepEqual(bySelector.drain?.matchedExecutorIds, ["c"]);
    await eventually(() => c.shards.length === 0 && b.shards.length === 12, 5_000, "b owns all");

    // An executor registering later with matching metadata is drained too.
    late.push(...runExecutors(current, "ns", ["late"], { intervalMs: 200, metadata }));
    await eventually(() => late[0]!.beats >= 2, 5_000, "the late executor to register");
    // Nothing must be assigned to it: two rebalance periods (500 ms) for a wrong one to show.
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(late[0]!.shards.length, 0, "the late executor gets nothing");

    const list = await call<unknown, ListExecutorDrainsResponse__Output>(
      clients.api,
      "listExecutorDrains",
      { namespace: "ns" },
    );
    assert.deepEqual(
      list.drains.map((d) => [d.id, d.reason, d.matchedExecutorIds]),
      [["id:a", "bad disk", ["a"]], ["selector:hostname=w7", "", ["c", "late"]]],
    );
    const state = await call<unknown, GetExecutorStateResponse__Output>(
      clients.api,
      "getExecutorState",
      { namespace: "ns", executorId: "late" },
    );
    assert.deepEqual(
      [state.executor?.drained, state.executor?.drainedBy, state.executor?.alive],
      [true, ["selector:hostname=w7"], true],
    );

    // Restart the service: the drains are stored in etcd.
    clients.close();
    await instance.stop();
    instance = await startInProcess(yaml);
    clients = connect(instance.server.address);
    const beats = Math.max(...[...executors, ...late].map((e) => e.beats));
    await eventually(
      () => [...executors, ...late].every((e) => e.beats > beats + 3),
      10_000,
      "heartbeats to the new instance",
    );
    assert.deepEqual([a.shards.length, c.shards.length, late[0]!.shards.length], [0, 0, 0]);
    assert.equal(b.shards.length, 12);

    const undrain = await call<unknown, UndrainExecutorsResponse__Output>(
      clients.api,
      "undrainExecutors",
      { namespace: "ns", selector: { hostname: "w7" } },
    );
    assert.deepEqual(undrain.removed?.matchedExecutorIds, ["c", "late"]);
    assert.deepEqual(undrain.stillDrainedExecutorIds, []);
    await eventually(
      () => c.shards.length > 0 && late[0]!.shards.length > 0,
      10_000,
      "the undrained executors to get shards",
    );
    const again = await call<unknown, UndrainExecutorsResponse__Output>(
      clients.api,
      "undrainExecutors",
      { namespace: "ns", selector: { hostname: "w7" } },
    );
    assert.equal(again.removed, null, "undraining twice is harmless");
    assert.equal(
      await codeOf(call(clients.api, "drainExecutors", { namespace: "ns" })),
      grpc.status.INVALID_ARGUMENT,
    );
    assert.equal(
      await codeOf(call(clients.api, "drainExecutors", { namespace: "nope", executorId: "a" })),
      grpc.status.NOT_FOUND,
    );
  } finally {
    for (const e of [...executors, ...late]) e.stop();
    clients.close();
    await instance.stop();
  }
});

Deno.test("inspection reports leaders, shard loads and move times", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(
    testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("operator-inspect"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: 2 }, {
        name: "other",
        type: "fixed",
        shardNum: 1,
      }],
    }),
    "instance-1",
  );
  const clients = connect(instance.server.address);
  const before = Date.now();
  const executors = runExecutors(clients, "ns", ["a"], { intervalMs: 200 });
  try {
    await eventually(() => executors[0]!.shards.length === 2, 10_000, "a owns both shards");
    const leaders = await call<unknown, ListLeadersResponse__Output>(
      clients.api,
      "listLeaders",
      {},
    );
    assert.deepEqual(leaders.leaders.map((l) => [l.namespace, l.instanceId]), [
      ["ns", "instance-1"],
      ["other", "instance-1"],
    ]);
    assert.ok(leaders.leaders.every((l) => Number(l.term) > 0 && l.since !== null));
    const shard = await call<unknown, InspectShardResponse__Output>(clients.api, "inspectShard", {
      namespace: "ns",
      shardKey: "1",
    });
    assert.equal(shard.owner, "a");
    assert.ok(Number(shard.assignedRevision) > 0);
    const movedAt = Number(shard.assignedAt?.seconds) * 1000;
    assert.ok(movedAt >= before - 1000 && movedAt <= Date.now(), "assigned at a plausible time");
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});
