import assert from "node:assert/strict";
import type { ShardStoppedError } from "./errors.ts";
import { testExecutor as setup } from "./_testing.ts";

const EXCLUSIVE = { shards: ["1", "2", "3"], leaseMs: 2_000 };

Deno.test("exclusive: processors stop a lease after the last answered heartbeat was sent, even in keep mode", async () => {
  const { time, service, executor, contexts, shutdown } = setup({}, EXCLUSIVE);
  executor.start();
  await time.tickAsync(0);
  await time.tickAsync(1_000); // the last answered heartbeat is sent at 1000
  service.down = new Error("14 UNAVAILABLE");
  await time.tickAsync(1_999); // 2999: one ms before 1000 + lease
  assert.deepEqual(executor.runningShards, ["1", "2", "3"]);
  await time.tickAsync(1);
  assert.deepEqual(executor.runningShards, [], "stopped at 3000 = send time + lease");
  assert.ok(contexts.every((c) => (c.signal.reason as ShardStoppedError).reason === "unreachable"));
  service.down = undefined;
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"], "started again when answered");
  await shutdown();
});

Deno.test("exclusive: an answer that arrives after its lease ran out is ignored", async () => {
  const { time, service, executor, contexts, events, shutdown } = setup({
    heartbeatTimeoutMs: 10_000,
  }, EXCLUSIVE);
  executor.start();
  await time.tickAsync(0);
  const late = Promise.withResolvers<void>();
  service.delay = late.promise;
  await time.tickAsync(1_000); // sent at 1000, answer held
  await time.tickAsync(1_100); // 2100: the lease of the answer at 0 ran out
  assert.deepEqual(executor.runningShards, []);
  await time.tickAsync(1_000); // 3100: past the held heartbeat's own lease (1000 + 2000)
  service.delay = undefined;
  late.resolve();
  await time.tickAsync(0);
  assert.deepEqual(executor.runningShards, [], "the late answer started nothing");
  assert.ok(events.some((e) => e.type === "heartbeat-failed" && e.error instanceof Error));
  assert.equal(contexts.length, 3);
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"], "the next timely answer does");
  await shutdown();
});

Deno.test("exclusive: a RELEASING shard is stopped, and reported until its processor has stopped", async () => {
  let finishStop: () => void = () => {};
  const { time, service, executor, shutdown } = setup({
    processor: (ctx) => ({
      stop: () => ctx.shardKey === "2" ? new Promise<void>((r) => finishStop = r) : undefined,
    }),
  }, EXCLUSIVE);
  executor.start();
  await time.tickAsync(0);
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"]);
  service.releasing.add("2");
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, ["1", "3"]);
  await time.tickAsync(1_000);
  const stopping = service.lastRequest("e1")!.shardStatusReports;
  assert.deepEqual(Object.keys(stopping).sort(), ["1", "2", "3"], "still reported while stopping");
  assert.equal(stopping["2"]?.status, "SHARD_STATUS_NOT_RUNNING", "stopping: held, not served");
  assert.equal(stopping["1"]?.status, "SHARD_STATUS_READY");
  finishStop();
  await time.tickAsync(1_000);
  const stopped = service.lastRequest("e1")!.shardStatusReports;
  assert.deepEqual(Object.keys(stopped).sort(), ["1", "3"], "gone once stopped");
  await shutdown();
});

Deno.test("available: no lease, RELEASING is never sent, and keep mode keeps shards", async () => {
  const { time, service, executor, shutdown } = setup();
  executor.start();
  await time.tickAsync(0);
  service.down = new Error("down");
  await time.tickAsync(30_000);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"]);
  await shutdown();
});

Deno.test("the fencing token of a shard taken away and given back is larger", async () => {
  const { time, service, executor, contexts, shutdown } = setup({}, EXCLUSIVE);
  executor.start();
  await time.tickAsync(0);
  const first = BigInt(contexts.find((c) => c.shardKey === "2")!.fencingToken);
  service.shards.delete("2");
  service.rebalance();
  await time.tickAsync(1_000);
  service.shards.add("2");
  service.rebalance();
  await time.tickAsync(1_000);
  const again = contexts.filter((c) => c.shardKey === "2");
  assert.equal(again.length, 2);
  assert.ok(BigInt(again[1]!.fencingToken) > first);
  await shutdown();
});

Deno.test("exclusive: a shard whose processor failed to start is reported NOT_RUNNING, then READY once it runs", async () => {
  let fail = true;
  const { time, service, executor, shutdown } = setup({
    processor: () => {
      if (fail) throw new Error("cannot open the database");
      return {};
    },
  }, { ...EXCLUSIVE, shards: ["1"] });
  executor.start();
  await time.tickAsync(0);
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, []);
  const failed = service.lastRequest("e1")!.shardStatusReports;
  assert.deepEqual(failed, {
    "1": { status: "SHARD_STATUS_NOT_RUNNING", shardLoad: 0, failedStarts: 1 },
  });
  fail = false; // retried once its backoff has passed (a second failure at 1 s: 1.5 s more)
  await time.tickAsync(1_000);
  await time.tickAsync(1_000);
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, ["1"]);
  const running = service.lastRequest("e1")!.shardStatusReports;
  assert.deepEqual(running, { "1": { status: "SHARD_STATUS_READY", shardLoad: 0 } });
  await shutdown();
});

Deno.test("available: a shard whose processor failed to start is reported NOT_RUNNING with its failed starts", async () => {
  const { time, service, executor, shutdown } = setup({
    processor: (ctx) => {
      if (ctx.shardKey === "2") throw new Error("cannot open the database");
    },
  });
  executor.start();
  await time.tickAsync(0);
  await time.tickAsync(1_000);
  // Before issue 41 a failed shard was left out: the service could not see it failing.
  assert.deepEqual(service.lastRequest("e1")!.shardStatusReports["2"], {
    status: "SHARD_STATUS_NOT_RUNNING",
    shardLoad: 0,
    failedStarts: 1,
  });
  assert.equal(service.lastRequest("e1")!.shardStatusReports["1"]?.status, "SHARD_STATUS_READY");
  await shutdown();
});
