import assert from "node:assert/strict";
import { testExecutor as setup } from "./_testing.ts";

Deno.test("a start that keeps failing is retried with a doubling backoff, not at every heartbeat", async () => {
  const attempts: number[] = [];
  const { time, clock, service, executor, shutdown } = setup({
    startRetryInitialMs: 1_000,
    startRetryMaxMs: 8_000,
    processor: () => {
      attempts.push(clock.now());
      throw new Error("poison");
    },
  }, { shards: ["1"] });
  executor.start();
  await time.tickAsync(61_000);
  // Heartbeats every second; with random() = 0.5 the delays are 0.75, 1.5, 3, 6, 6, 6... s,
  // each retried at the first heartbeat after it.
  const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
  assert.deepEqual(gaps.slice(0, 5), [1_000, 2_000, 3_000, 6_000, 6_000]);
  assert.ok(attempts.length < 15, `${attempts.length} starts in a minute, not 60`);
  const report = service.lastRequest("e1")!.shardStatusReports["1"];
  assert.equal(report?.status, "SHARD_STATUS_NOT_RUNNING", "reported, in an available namespace");
  assert.equal(report?.failedStarts, attempts.length);
  await shutdown();
});

Deno.test("a failed start says when it is retried; a start that succeeds resets the count", async () => {
  let attempts = 0;
  const { time, service, executor, events, shutdown } = setup({
    processor: () => {
      if (++attempts <= 2) throw new Error("database not ready");
    },
  }, { shards: ["1"] });
  executor.start();
  await time.tickAsync(0);
  const failed = events.find((e) => e.type === "processor-failed");
  assert.ok(failed?.type === "processor-failed");
  assert.equal(failed.failedStarts, 1);
  assert.equal(failed.retryInMs, 750);
  await time.tickAsync(1_000);
  assert.equal(service.lastRequest("e1")!.shardStatusReports["1"]?.failedStarts, 1);
  await time.tickAsync(3_500);
  assert.equal(attempts, 3);
  assert.deepEqual(executor.runningShards, ["1"]);
  const report = service.lastRequest("e1")!.shardStatusReports["1"];
  assert.equal(report?.status, "SHARD_STATUS_READY");
  assert.equal(report?.failedStarts, undefined, "a zero is left out, as proto3 does");
  await shutdown();
});

Deno.test("a shard the service quarantined is released with that reason and never retried", async () => {
  let attempts = 0;
  const { time, service, executor, events, shutdown } = setup({
    processor: (ctx) => {
      if (ctx.shardKey === "2") {
        attempts++;
        throw new Error("poison");
      }
    },
  }, { shards: ["1", "2"] });
  executor.start();
  await time.tickAsync(5_000);
  assert.ok(attempts >= 2);
  service.quarantined.add("2");
  await time.tickAsync(1_000);
  const released = events.find((e) => e.type === "released" && e.shardKey === "2");
  assert.deepEqual(released, { type: "released", shardKey: "2", reason: "quarantined" });
  const before = attempts;
  await time.tickAsync(30_000);
  assert.equal(attempts, before, "no more starts");
  assert.ok(!("2" in service.lastRequest("e1")!.shardStatusReports), "no longer reported");
  assert.deepEqual(executor.runningShards, ["1"]);
  await shutdown();
});

Deno.test("startRetry options are checked", () => {
  assert.throws(
    () => setup({ startRetryInitialMs: 5_000, startRetryMaxMs: 1_000 }),
    /startRetryMaxMs must be at least startRetryInitialMs \(5000\), got 1000/,
  );
  assert.throws(() => setup({ startRetryInitialMs: -1 }), /startRetryInitialMs must be a positive/);
});
