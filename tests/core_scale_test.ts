// deno-lint-ignore-file no-console -- the measured figure is printed for whoever runs the test
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";

Deno.test("1,000 executors in one fixed namespace of 10,000 shards on a default etcd all receive their share", async () => {
  // etcd with default settings: --max-txn-ops 128, which caps the upstream at about 128 executors.
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("scale"),
    namespaces: [{ name: "big", type: "fixed", shardNum: 10_000 }],
    process: {
      heartbeatTTL: "10s",
      period: "1s",
      rebalanceCooldown: "200ms",
      maxMovesPerPass: 10_000,
    },
  });
  await using service = await startProcess(yaml, "scale-1");
  const clients = connect(service.address);
  const ids = Array.from({ length: 1_000 }, (_, i) => `executor-${String(i).padStart(4, "0")}`);
  const executors = runExecutors(clients, "big", ids, { intervalMs: 1_000 });
  try {
    const elapsed = await eventually(
      () => {
        if (!executors.every((e) => e.shards.length === 10)) return false;
        const all = executors.flatMap((e) => e.shards);
        return new Set(all).size === 10_000;
      },
      90_000,
      "every executor to hold exactly 10 distinct shards",
    );
    const all = executors.flatMap((e) => e.shards);
    assert.equal(all.length, 10_000);
    assert.equal(new Set(all).size, 10_000);
    console.log(`1,000 executors held 10 shards each after ${Math.round(elapsed)} ms`);
  } finally {
    for (const e of executors) e.stop();
    clients.close();
  }
});
