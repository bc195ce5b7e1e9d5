import assert from "node:assert/strict";
import { testExecutor } from "./_testing.ts";

Deno.test("available: a shard moved away keeps serving for handoffGraceMs, then stops", async () => {
  const made = testExecutor({ handoffGraceMs: 100 }, { shards: ["1", "2"] });
  const { time, service, executor, types } = made;
  executor.start();
  await time.tickAsync(0);
  assert.deepEqual(executor.runningShards, ["1", "2"]);
  service.shards.delete("2");
  await time.tickAsync(1_000); // the next heartbeat's answer no longer lists it
  assert.deepEqual(executor.runningShards, ["1", "2"], "still serving within the grace");
  await time.tickAsync(100);
  assert.deepEqual(executor.runningShards, ["1"]);
  assert.deepEqual(types("released"), ["2"]);
  await made.shutdown();
});

Deno.test("available: a shard that comes back within the grace is never stopped", async () => {
  const made = testExecutor({ handoffGraceMs: 1_500 }, { shards: ["1", "2"] });
  const { time, service, executor, types } = made;
  executor.start();
  await time.tickAsync(0);
  service.shards.delete("2");
  await time.tickAsync(1_000);
  service.shards.add("2");
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, ["1", "2"]);
  assert.deepEqual(types("released"), []);
  await made.shutdown();
});

Deno.test("the grace is 0 by default without a prepare hook, 100 ms with one; exclusive never waits", async () => {
  const cold = testExecutor({}, { shards: ["1", "2"] });
  cold.executor.start();
  await cold.time.tickAsync(0);
  cold.service.shards.delete("2");
  await cold.time.tickAsync(1_000);
  assert.deepEqual(cold.executor.runningShards, ["1"], "stopped at once");
  await cold.shutdown();
  const exclusive = testExecutor({ handoffGraceMs: 5_000 }, { shards: ["1", "2"], leaseMs: 3_000 });
  exclusive.executor.start();
  await exclusive.time.tickAsync(0);
  exclusive.service.shards.delete("2");
  await exclusive.time.tickAsync(1_000);
  assert.deepEqual(exclusive.executor.runningShards, ["1"], "exclusive: stopped at once");
  await exclusive.shutdown();
  assert.throws(
    () => testExecutor({ handoffGraceMs: -1 }),
    /handoffGraceMs must be 0 or a positive number of ms, got -1/,
  );
});
