import assert from "node:assert/strict";
import { InvalidOptionsError } from "../common/errors.ts";
import { Executor } from "./executor.ts";
import { ProcessorTimeoutError, ShardStoppedError } from "./errors.ts";
import type { ShardContext } from "./types.ts";
import { testExecutor as setup } from "./_testing.ts";

Deno.test("assigned shards start processors and unassigned ones stop them", async () => {
  const { time, service, executor, contexts, types, events, shutdown } = setup();
  executor.start();
  await time.tickAsync(0);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"]);
  assert.deepEqual(types("assigned"), ["1", "2", "3"]);
  assert.deepEqual(types("started"), ["1", "2", "3"]);
  const ctx = contexts.find((c) => c.shardKey === "2")!;
  assert.equal(ctx.namespace, "ns");
  assert.equal(ctx.executorId, "e1");
  assert.equal(ctx.fencingToken, service.tokens.get("2"));

  service.shards.delete("2");
  await time.tickAsync(1_000);
  assert.ok(ctx.signal.aborted);
  assert.ok(ctx.signal.reason instanceof ShardStoppedError);
  assert.equal(ctx.signal.reason.reason, "unassigned");
  assert.deepEqual(executor.runningShards, ["1", "3"]);
  assert.deepEqual(events.at(-1), { type: "released", shardKey: "2", reason: "unassigned" });
  await shutdown();
});

Deno.test("heartbeats go out every interval and report running shards with their load", async () => {
  const { time, service, executor, contexts, shutdown } = setup();
  executor.start();
  await time.tickAsync(0);
  assert.equal(service.requests.length, 1);
  assert.deepEqual(service.requests[0]!.shardStatusReports, {}, "nothing runs before the answer");
  contexts.find((c) => c.shardKey === "1")!.reportLoad(2.5);
  assert.throws(
    () => contexts[0]!.reportLoad(-1),
    /Shard load must be a finite number >= 0, got -1/,
  );
  await time.tickAsync(1_000);
  assert.equal(service.requests.length, 2);
  const request = service.requests[1]!;
  assert.equal(request.status, "EXECUTOR_STATUS_ACTIVE");
  assert.deepEqual(request.shardStatusReports, {
    "1": { status: "SHARD_STATUS_READY", shardLoad: 2.5 },
    "2": { status: "SHARD_STATUS_READY", shardLoad: 0 },
    "3": { status: "SHARD_STATUS_READY", shardLoad: 0 },
  });
  await time.tickAsync(10_000);
  assert.equal(service.requests.length, 12);
  await shutdown();
});

Deno.test("a stuck start delays neither heartbeats nor other shards, and times out", async () => {
  const stuck: ShardContext[] = [];
  const late = Promise.withResolvers<{ stop(): void }>();
  let lateStopped = false;
  const { time, service, executor, types, events, shutdown } = setup({
    startTimeoutMs: 5_000,
    processor: (ctx) => {
      if (ctx.shardKey !== "2") return;
      stuck.push(ctx);
      if (stuck.length === 1) return late.promise;
      return new Promise(() => {});
    },
  });
  executor.start();
  await time.tickAsync(0);
  assert.deepEqual(executor.runningShards, ["1", "3"], "the others start at once");
  await time.tickAsync(4_000);
  assert.equal(service.requests.length, 5, "heartbeats keep their pace");
  assert.ok(
    !("2" in service.lastRequest("e1")!.shardStatusReports),
    "a starting shard is not reported",
  );
  assert.deepEqual(types("processor-failed"), []);

  await time.tickAsync(1_000);
  const failure = events.find((e) => e.type === "processor-failed");
  assert.ok(failure?.type === "processor-failed" && failure.error instanceof ProcessorTimeoutError);
  assert.equal(failure.phase, "start");
  assert.ok(stuck[0]!.signal.aborted, "the timed-out attempt's signal aborts");
  assert.equal((stuck[0]!.signal.reason as ShardStoppedError).reason, "start-failed");

  await time.tickAsync(1_000);
  assert.equal(stuck.length, 2, "retried on the next heartbeat with a fresh context");
  assert.ok(!stuck[1]!.signal.aborted);
  late.resolve({ stop: () => void (lateStopped = true) });
  await time.tickAsync(0);
  assert.ok(lateStopped, "a start that finishes after its timeout is stopped");
  await time.tickAsync(5_000);
  assert.equal(types("processor-failed").length, 2);
  await shutdown();
});

Deno.test("a failed start is retried on a later heartbeat", async () => {
  let attempts = 0;
  const { time, executor, types, shutdown } = setup({
    processor: () => {
      if (++attempts === 1) throw new Error("database not ready");
    },
  }, { shards: ["1"] });
  executor.start();
  await time.tickAsync(0);
  assert.deepEqual(types("processor-failed"), ["1"]);
  assert.deepEqual(executor.runningShards, []);
  await time.tickAsync(1_000);
  assert.equal(attempts, 2);
  assert.deepEqual(executor.runningShards, ["1"]);
  assert.deepEqual(types("started"), ["1"]);
  await shutdown();
});

Deno.test("a stuck stop times out; other shards and heartbeats go on; the shard can start again", async () => {
  const starts: string[] = [];
  const { time, service, executor, types, shutdown } = setup({
    stopTimeoutMs: 1_500,
    processor: (ctx) => {
      starts.push(ctx.shardKey);
      return { stop: () => ctx.shardKey === "1" ? new Promise<void>(() => {}) : undefined };
    },
  });
  executor.start();
  await time.tickAsync(0);
  service.shards.delete("1");
  service.shards.delete("2");
  await time.tickAsync(1_000);
  assert.deepEqual(types("released"), ["2"], "a quick stop is not held up by a stuck one");
  service.shards.add("1");
  service.shards.add("4");
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, ["3", "4"], "shard 1 waits for its stop to end");
  await time.tickAsync(500);
  assert.deepEqual(types("processor-failed"), ["1"]);
  assert.deepEqual(types("released"), ["2", "1"]);
  assert.deepEqual(executor.runningShards, ["1", "3", "4"], "and starts once its stop timed out");
  assert.deepEqual(starts, ["1", "2", "3", "4", "1"]);
  assert.equal(service.requests.length, 3);
  await shutdown();
});

Deno.test("done() reports the shard DONE and it stops once the service removes it", async () => {
  const { time, service, executor, contexts, events, shutdown } = setup({}, {
    shards: ["job-a", "job-b"],
    ephemeral: true,
  });
  executor.start();
  await time.tickAsync(0);
  contexts.find((c) => c.shardKey === "job-a")!.done();
  await time.tickAsync(1_000);
  assert.equal(service.requests[1]!.shardStatusReports["job-a"]?.status, "SHARD_STATUS_DONE");
  assert.deepEqual(executor.runningShards, ["job-b"]);
  assert.deepEqual(events.at(-1), { type: "released", shardKey: "job-a", reason: "unassigned" });
  await shutdown();
});

Deno.test("bad options are refused up front, naming the option", () => {
  const base = { addresses: "127.0.0.1:1", namespace: "ns", processor: () => {} };
  assert.throws(() => new Executor({ ...base, namespace: "" }), /namespace must be/);
  assert.throws(
    () => new Executor({ ...base, addresses: [] }),
    /addresses must be "host:port" or a non-empty array/,
  );
  assert.throws(
    () => new Executor({ ...base, addresses: "http://127.0.0.1:7943" }),
    /without a scheme/,
  );
  assert.throws(() => new Executor({ ...base, namespace: "" }), InvalidOptionsError);
  assert.throws(() => new Executor({ ...base, heartbeatIntervalMs: 0 }), /heartbeatIntervalMs/);
  assert.throws(
    () => new Executor({ ...base, onUnreachable: { mode: "stop", afterMs: -1 } }),
    /onUnreachable.afterMs/,
  );
  assert.throws(
    () => new Executor({ ...base, metadata: { ["k".repeat(200)]: "v" } }),
    /metadata keys/,
  );
  const id = new Executor(base).id;
  assert.match(id, /-[0-9a-f]{8}$/);
  assert.notEqual(new Executor(base).id, id, "a fresh id per executor");
});

Deno.test("a declared capacity goes out with every heartbeat as reserved metadata", async () => {
  const { time, service, executor, shutdown } = setup({
    metadata: { zone: "a" },
    capacity: { shards: 40, load: 12.5 },
  });
  executor.start();
  await time.tickAsync(0);
  assert.deepEqual(service.requests[0]!.metadata, {
    zone: "a",
    "sm.capacity.shards": "40",
    "sm.capacity.load": "12.5",
  });
  await shutdown();
  const base = { addresses: "127.0.0.1:1", namespace: "ns", processor: () => {} };
  assert.throws(
    () => new Executor({ ...base, capacity: { shards: 0 } }),
    /capacity.shards must be a positive integer, got 0/,
  );
  assert.throws(
    () => new Executor({ ...base, capacity: { load: Number.NaN } }),
    /capacity.load must be a positive number, got NaN/,
  );
});

Deno.test("every heartbeat of an executor carries its incarnation; another executor (a restart) has another", async () => {
  const first = setup();
  first.executor.start();
  await first.time.tickAsync(2_000);
  const lives = new Set(first.service.requests.map((r) => r.incarnation));
  assert.equal(lives.size, 1);
  const [life] = lives;
  assert.match(life ?? "", /^[0-9a-f-]{36}$/);
  await first.shutdown();
  const restarted = setup();
  restarted.executor.start();
  await restarted.time.tickAsync(0);
  assert.notEqual(restarted.service.requests[0]!.incarnation, life);
  await restarted.shutdown();
});
