// deno-lint-ignore-file no-console -- the measured shutdown time is printed for whoever runs the test
/**
 * Warm handover end to end through the SDK, against real etcd and gRPC: an
 * executor shut down as on SIGTERM hands every shard to one that prepared it
 * first, with the token its prepare announced, and shutdown() ends as soon as
 * the shards have moved.
 */
import assert from "node:assert/strict";
import { Executor } from "../src/client/executor/mod.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

const SHARDS = 8;
const PREPARE_MS = 300;

Deno.test("warm handover through the SDK: shutdown hands every shard to an executor that prepared it", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("warm-sdk"),
    namespaces: [{
      name: "ns",
      type: "fixed",
      shardNum: SHARDS,
      settleWindow: "0s",
      shardCooldown: "0s",
      minImprovement: 0,
    }],
  }));
  /** shard → what each executor's processors were handed. */
  const started: { executor: string; shard: string; prepared: unknown; token: string }[] = [];
  const prepared = new Map<string, string>(); // shard → token announced to b
  const make = (id: string) =>
    new Executor<string>({
      addresses: instance.server.address,
      namespace: "ns",
      executorId: id,
      heartbeatIntervalMs: 5_000, // the switch must not wait for heartbeats
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      prepare: async (ctx) => {
        await new Promise((r) => setTimeout(r, PREPARE_MS));
        prepared.set(ctx.shardKey, ctx.fencingToken);
        return `state of ${ctx.shardKey}`;
      },
      processor: (ctx) => {
        started.push({
          executor: id,
          shard: ctx.shardKey,
          prepared: ctx.prepared,
          token: ctx.fencingToken,
        });
      },
    });
  const a = await make("a").start({ timeoutMs: 10_000 });
  try {
    await eventually(() => started.length === SHARDS, 10_000, "a runs every shard");
    assert.ok(started.every((s) => s.prepared === undefined), "first placement is cold");
    const b = await make("b").start({ timeoutMs: 10_000 });
    try {
      await eventually(
        () => started.filter((s) => s.executor === "b").length === SHARDS / 2,
        10_000,
        "b takes half",
      );
      const t0 = performance.now();
      await a.shutdown();
      const shutdownMs = performance.now() - t0;
      await eventually(
        () => started.filter((s) => s.executor === "b").length === SHARDS,
        10_000,
        "b runs all",
      );
      for (const s of started.filter((s) => s.executor === "b")) {
        assert.equal(s.prepared, `state of ${s.shard}`, `shard ${s.shard} arrived warm`);
        assert.equal(s.token, prepared.get(s.shard), `shard ${s.shard} kept its announced token`);
      }
      // Round trips and the prepare, not 5 s heartbeat intervals.
      assert.ok(shutdownMs < 4_000, `shutdown took ${Math.round(shutdownMs)} ms`);
      console.log(`warm handover through the SDK: shutdown() of a in ${Math.round(shutdownMs)} ms`);
    } finally {
      await b.shutdown();
    }
  } finally {
    await a.shutdown();
    await instance.stop();
  }
});
