/**
 * Deleting a namespace waits until every live executor heartbeated after its
 * shards lost their owners. Against real etcd with two instances whose wall
 * clocks disagree by 30 s (one runs under libfaketime, `-30s`; inside the
 * documented assumption, docs/ownership.md, "Clocks"): the executors
 * heartbeat only through the instance that is behind, so their records carry
 * timestamps 30 s old, and the delete goes through the other instance. It
 * must finish as soon as the executors acted on the drain, not time out.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { connect } from "./support/grpc_clients.ts";
import { faketimeEnv, faketimeLibrary } from "./support/faketime.ts";
import { startInProcess, startProcess, testConfigYaml } from "./support/service.ts";

const ORDERS = "name: orders\ntype: fixed\nshardNum: 4\ncoldStartWait: 0s\n";

Deno.test({
  name: "a namespace delete is not fooled by an instance whose clock is 30 s behind",
  ignore: faketimeLibrary() === undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using etcd = await startEtcd();
    const yaml = testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("delete clock skew"),
      namespaces: [{ name: "jobs", type: "fixed", shardNum: 2 }],
    });
    const a = await startInProcess(yaml, "instance-a");
    await using behind = await startProcess(yaml, "instance-behind", {
      env: faketimeEnv("-30s"),
    });
    const cb = connect(behind.address);
    const executors = runExecutors(cb, "orders", ["ex-1", "ex-2"], { intervalMs: 200 });
    try {
      await a.manager.admin.create("orders", ORDERS);
      await eventually(
        () => executors.flatMap((e) => e.shards).sort().join() === "0,1,2,3",
        15_000,
        "the executors (through the instance behind) to get every shard",
      );
      const started = performance.now();
      const result = await a.manager.admin.delete("orders", 8_000);
      const tookMs = performance.now() - started;
      assert.deepEqual(result.undrained, [], "every shard drained and acted on");
      assert.ok(tookMs < 6_000, `the delete waited ${Math.round(tookMs)} ms`);
      assert.ok(executors.every((e) => e.shards.length === 0), "executors run nothing");
    } finally {
      for (const e of executors) await e.stop();
      cb.close();
      await a.stop();
    }
  },
});
