import assert from "node:assert/strict";
import { Executor } from "./executor.ts";
import type { ShardStoppedError } from "./errors.ts";
import type { ShardContext } from "./types.ts";
import { testExecutor as setup } from "./_testing.ts";

Deno.test("shutdown reports DRAINING, waits for the shards to move, then DRAINED", async () => {
  const { time, clock, service, executor, contexts, types, collected } = setup();
  executor.start();
  await time.tickAsync(0);
  const other = new Executor({
    addresses: "unused:1",
    namespace: "ns",
    executorId: "e2",
    transport: service,
    clock,
    random: () => 0.5, // the same heartbeat jitter as e1: a Math.random one can miss the tick below
    processor: () => {},
  });
  void other.start();
  await time.tickAsync(1_000);
  const mine = executor.runningShards;
  assert.deepEqual(mine, ["1", "2", "3"]);
  assert.deepEqual(other.runningShards, []);

  const sent = service.requests.length;
  await executor.shutdown(); // needs no timer: DRAINING goes out at once, the answer is empty
  const statuses = service.requests.filter((r) => r.executorId === "e1").map((r) => r.status);
  assert.deepEqual(statuses.slice(-2), ["EXECUTOR_STATUS_DRAINING", "EXECUTOR_STATUS_DRAINED"]);
  assert.equal(service.requests.length, sent + 2);
  assert.deepEqual(service.lastRequest("e1")?.shardStatusReports, {});
  assert.deepEqual(types("released"), mine);
  assert.ok(contexts.every((c) => (c.signal.reason as ShardStoppedError).reason === "unassigned"));
  await collected; // events() iterators end
  assert.equal(executor.status, "DRAINED");
  await time.tickAsync(1_000);
  assert.deepEqual(other.runningShards, ["1", "2", "3"], "the shards moved");
  await assert.rejects(executor.start(), /shut down/);

  const done = other.shutdown();
  await time.tickAsync(20_000);
  await done;
});

Deno.test("shutdown stops what the service does not take within drainTimeoutMs", async () => {
  const stops: string[] = [];
  const { time, service, executor, contexts, events, shutdown } = setup({
    drainTimeoutMs: 3_000,
    processor: (ctx) => ({ stop: () => void stops.push(`${ctx.shardKey}@${time.now}`) }),
  }, { shards: ["1", "2"] });
  executor.start();
  await time.tickAsync(0);
  service.down = new Error("14 UNAVAILABLE");
  await shutdown();
  assert.deepEqual(stops, ["1@3000", "2@3000"]);
  assert.equal(contexts.length, 0, "the processor above does not record contexts");
  assert.deepEqual(
    events.filter((e) => e.type === "released").map((e) => e.type === "released" && e.reason),
    ["shutdown", "shutdown"],
  );
  assert.equal(service.lastRequest("e1")?.status, "EXECUTOR_STATUS_DRAINED", "tried anyway");
});

Deno.test("shutdown waits for a processor that is still starting, within its timeout", async () => {
  const seen: ShardContext[] = [];
  const { time, executor, events, shutdown } = setup({
    startTimeoutMs: 2_000,
    processor: (ctx) => {
      seen.push(ctx);
      return new Promise(() => {});
    },
  }, { shards: ["1"] });
  executor.start();
  await time.tickAsync(0);
  await shutdown();
  assert.ok(seen[0]!.signal.aborted);
  assert.deepEqual(events.filter((e) => e.type === "released").length, 1);
  assert.ok(time.now <= 2_100, `done within the start timeout, at ${time.now}`);
});

Deno.test("shutdown before start sends nothing and ends event iterators", async () => {
  const { service, executor, collected } = setup();
  await executor.shutdown();
  await collected;
  assert.equal(service.requests.length, 0);
  await assert.rejects(executor.start(), /shut down/);
});
