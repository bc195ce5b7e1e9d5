import assert from "node:assert/strict";
import { Executor } from "../sdk/executor.ts";
import { createSpectator } from "../sdk/spectator.ts";
import { startTestShardManager } from "./mod.ts";

Deno.test("the kit serves the real SDK: an executor runs every shard and a spectator sees it", async () => {
  await using sm = await startTestShardManager({
    namespaces: [{ name: "orders", type: "fixed", shardNum: 4 }],
  });
  const running = new Set<string>();
  await using executor = new Executor({
    ...sm.executorOptions("orders"),
    executorId: "mine",
    metadata: { address: "10.0.0.5:8080" },
    processor: (ctx) => {
      running.add(ctx.shardKey);
      return { stop: () => void running.delete(ctx.shardKey) };
    },
  });
  await executor.start();
  assert.deepEqual(await sm.waitUntilSettled("orders"), {
    0: "mine",
    1: "mine",
    2: "mine",
    3: "mine",
  });
  await sm.waitFor(() => running.size === 4, { what: "four processors run" });
  await using spectator = createSpectator({ addresses: [...sm.addresses], namespace: "orders" });
  await spectator.waitReady({ timeoutMs: 5_000 });
  await sm.waitFor(() => spectator.addressOf("3") === "10.0.0.5:8080");
});

Deno.test("kit executors take shards from the application's executor and give them back when removed", async () => {
  await using sm = await startTestShardManager({
    namespaces: [{ name: "orders", type: "fixed", shardNum: 6 }],
  });
  await using executor = new Executor({
    ...sm.executorOptions("orders"),
    executorId: "mine",
    processor: () => {},
  });
  await executor.start();
  await sm.waitUntilSettled("orders");
  const other = await sm.addExecutor("orders", { executorId: "other" });
  await sm.waitUntilSettled("orders");
  assert.equal(sm.shardsOf("orders", "mine").length, 3);
  assert.equal(other.runningShards.length, 3);
  await sm.waitFor(() => executor.runningShards.length === 3);
  await sm.removeExecutor("orders", "other");
  await sm.waitUntilSettled("orders");
  assert.equal(sm.shardsOf("orders", "mine").length, 6);
});

Deno.test("drainExecutor moves an executor's shards away, undrainExecutor lets them come back", async () => {
  await using sm = await startTestShardManager({
    namespaces: [{ name: "orders", type: "fixed", shardNum: 4 }],
  });
  await sm.addExecutor("orders", { executorId: "a" });
  await sm.addExecutor("orders", { executorId: "b" });
  await sm.waitUntilSettled("orders");
  await sm.drainExecutor("orders", "a");
  const drained = await sm.waitUntilSettled("orders");
  assert.deepEqual(Object.values(drained), ["b", "b", "b", "b"]);
  await sm.undrainExecutor("orders", "a");
  await sm.waitFor(() => sm.shardsOf("orders", "a").length === 2, { what: "a has 2 shards" });
});

Deno.test("expireExecutor moves a lost executor's shards at once, without waiting for the TTL", async () => {
  await using sm = await startTestShardManager({
    heartbeatTtlMs: 60_000,
    namespaces: [{ name: "orders", type: "fixed", shardNum: 4 }],
  });
  const a = await sm.addExecutor("orders", { executorId: "a" });
  await sm.addExecutor("orders", { executorId: "b" });
  await sm.waitUntilSettled("orders");
  const started = performance.now();
  await sm.expireExecutor("orders", "a");
  assert.ok(a.crashed);
  assert.deepEqual(Object.values(sm.assignment("orders")), ["b", "b", "b", "b"]);
  assert.ok(performance.now() - started < 10_000, "well before the 60 s TTL");
});

Deno.test("setAssignment puts shards on the executors named and freezes them there until unfreeze", async () => {
  await using sm = await startTestShardManager({
    namespaces: [{ name: "orders", type: "fixed", shardNum: 4 }],
  });
  const a = await sm.addExecutor("orders", { executorId: "a" });
  await sm.addExecutor("orders", { executorId: "b" });
  await sm.waitUntilSettled("orders");
  await sm.setAssignment("orders", { a: ["0", "1", "2"], b: ["3"] });
  assert.deepEqual(await sm.waitUntilSettled("orders"), { 0: "a", 1: "a", 2: "a", 3: "b" });
  await sm.waitFor(() => a.runningShards.length === 3, { what: "a runs three shards" });
  await sm.addExecutor("orders", { executorId: "c" });
  await sm.waitUntilSettled("orders");
  assert.deepEqual(sm.shardsOf("orders", "c"), [], "frozen: the newcomer gets nothing");
  await sm.unfreeze("orders");
  await sm.waitFor(() => sm.shardsOf("orders", "c").length > 0, { what: "c gets shards" });
  await assert.rejects(
    sm.setAssignment("orders", { nobody: ["0"] }),
    /nobody is not a live executor of orders/,
  );
  await assert.rejects(sm.setAssignment("orders", { a: ["4"] }), /shards "0" to "3", not "4"/);
});

Deno.test("advanceTime moves the service's clock: a silent executor is lost after the TTL", async () => {
  await using sm = await startTestShardManager({
    heartbeatTtlMs: 10_000,
    namespaces: [{ name: "orders", type: "fixed", shardNum: 2 }],
  });
  const a = await sm.addExecutor("orders", { executorId: "a" });
  await sm.waitUntilSettled("orders");
  await sm.freeze("orders"); // b takes a's shards only once a is lost
  await sm.addExecutor("orders", { executorId: "b" });
  const before = sm.now();
  a.crash();
  await sm.advanceTime(5_000);
  assert.ok(sm.now() - before >= 5_000);
  assert.deepEqual(sm.shardsOf("orders", "a"), ["0", "1"], "half the TTL: still its own");
  await sm.advanceTime(6_000);
  await sm.waitFor(() => sm.shardsOf("orders", "b").length === 2, { what: "b took a's shards" });
});

Deno.test("the kit refuses bad input with a message naming it", async () => {
  await assert.rejects(startTestShardManager({ heartbeatTtlMs: 1 }), /heartbeatTtlMs must be/);
  await using sm = await startTestShardManager();
  await assert.rejects(
    sm.createNamespace({ name: "x", type: "fixed" }),
    /shardNum/,
  );
  await assert.rejects(sm.addExecutor("missing"), /missing/);
});
