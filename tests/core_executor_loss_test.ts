import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

Deno.test("an executor that stops heartbeating loses its shards within heartbeatTTL + period + 1s", async () => {
  await using etcd = await startEtcd();
  const heartbeatTtlMs = 2_000, periodMs = 500;
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("loss"),
    namespaces: [{ name: "jobs", type: "fixed", shardNum: 32 }],
    process: { heartbeatTTL: "2s", period: "500ms" },
  });
  const instance = await startInProcess(yaml);
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "jobs", ["a", "b", "c"], { intervalMs: 250 });
  try {
    await eventually(
      () =>
        new Set(executors.flatMap((e) => e.shards)).size === 32 &&
        executors.every((e) => e.shards.length >= 10),
      10_000,
      "a partition",
    );
    const [victim, ...survivors] = executors as [typeof executors[0], ...typeof executors];
    const lost = new Set(victim.shards);
    victim.stop();
    const lastBeat = performance.now();
    const elapsed = await eventually(
      () => {
        const held = survivors.flatMap((e) => e.shards);
        return held.length === 32 && new Set(held).size === 32 &&
          [...lost].every((s) => held.includes(s));
      },
      heartbeatTtlMs + periodMs + 5_000,
      "the survivors to own every shard",
    );
    const bound = heartbeatTtlMs + periodMs + 1_000;
    assert.ok(
      performance.now() - lastBeat <= bound + 300, // one heartbeat interval of the survivors to hear of it
      `took ${Math.round(elapsed)} ms, bound ${bound} ms`,
    );
    assert.ok(survivors.every((e) => e.shards.length === 16), "16 shards each after the loss");
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});
