/**
 * Open enums end to end: an executor that reports a status this server does
 * not know (a number outside the contract, as a newer executor might send)
 * keeps its shards and gets no new ones until it is stale; the number comes
 * back in GetNamespaceState. Real gRPC, real etcd.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect, heartbeat } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type { GetNamespaceStateResponse__Output, HeartbeatRequest } from "../src/wire/proto.ts";

Deno.test("an executor of unknown status keeps its shards until stale, gets nothing new, and reads back as its number", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("open-enums"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 8, maxMovesPerPass: 8 }],
    process: { heartbeatTTL: "2s", period: "200ms" },
  }));
  const clients = connect(instance.server.address);
  let shards: string[] = [];
  const beat = async (status: NonNullable<HeartbeatRequest["status"]>) => {
    const reports: NonNullable<HeartbeatRequest["shardStatusReports"]> = {};
    // Shard statuses this server does not know count as READY.
    for (const s of shards) reports[s] = { status: 9 as never, shardLoad: 1 };
    const res = await heartbeat(clients, {
      namespace: "ns",
      executorId: "u",
      status,
      shardStatusReports: reports,
    });
    shards = Object.keys(res.shardAssignments).sort();
  };
  let others: ReturnType<typeof runExecutors> = [];
  try {
    // u takes every shard while ACTIVE, then reports status 7.
    await eventually(
      async () => (await beat("EXECUTOR_STATUS_ACTIVE"), shards.length === 8),
      10_000,
      "u owns all",
    );
    const held = [...shards];
    await beat(7 as never);
    // The answer does not wait for the record to reach this instance's cache (an available
    // namespace): read until it has, within a flush and a watch event.
    type Executor = GetNamespaceStateResponse__Output["executors"][number];
    let u: Executor | undefined;
    await eventually(
      async () => {
        const state = await call<unknown, GetNamespaceStateResponse__Output>(
          clients.api,
          "getNamespaceState",
          { namespace: "ns" },
        );
        u = state.executors.find((e) => e.executorId === "u");
        return u?.status === (7 as never);
      },
      5_000,
      () => `the number to come back as sent (status ${u?.status})`,
    );
    assert.equal(u?.alive, true);

    // A newcomer would get half the shards from an ACTIVE u; from this u it gets none.
    others = runExecutors(clients, "ns", ["a"], { intervalMs: 200 });
    const start = performance.now();
    while (performance.now() - start < 1_500) {
      await beat(7 as never);
      assert.deepEqual(shards, held, "u keeps every shard while it beats");
      assert.equal(others[0]!.shards.length, 0, "and nothing of u's goes to a");
      await new Promise((r) => setTimeout(r, 200));
    }

    // u falls silent: once stale its shards move to a.
    await eventually(() => others[0]!.shards.length === 8, 10_000, "a owns all after u is stale");
  } finally {
    for (const e of others) e.stop();
    clients.close();
    await instance.stop();
  }
});
