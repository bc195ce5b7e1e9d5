import assert from "node:assert/strict";
import { recordingMeter, recordingTracer } from "../common/_recording_telemetry.ts";
import { contractMessage, executorService } from "../../wire/proto.ts";
import type { ShardStatusReport, ShardStatusReport__Output } from "../../wire/proto.ts";
import type { ShardStoppedError } from "./errors.ts";
import { Executor } from "./executor.ts";
import type { ExecutorOptions } from "./options.ts";
import type { PrepareContext, ShardContext } from "./types.ts";
import { testExecutor } from "./_testing.ts";

/** Shard "1" served by executor "old" (which never heartbeats here); e1 is the incoming one. */
function setup(options: Partial<ExecutorOptions> = {}, leaseMs?: number) {
  const made = testExecutor(options, {
    shards: ["1"],
    manual: true,
    ...(leaseMs === undefined ? {} : { leaseMs }),
  });
  made.service.owners.set("1", "old");
  made.service.tokens.set("1", "50");
  return made;
}

/** A prepare hook whose calls the test resolves or rejects by hand. */
function manualPrepare<T>() {
  const calls: { ctx: PrepareContext; done: PromiseWithResolvers<T> }[] = [];
  const prepare = (ctx: PrepareContext) => {
    const done = Promise.withResolvers<T>();
    calls.push({ ctx, done });
    return done.promise;
  };
  return { calls, prepare };
}

const reportsOf = (made: ReturnType<typeof setup>) =>
  made.service.lastRequest("e1")?.shardStatusReports ?? {};

Deno.test("warm handover: PREPARING runs prepare with the token to come, PREPARED is reported at once", async () => {
  const { calls, prepare } = manualPrepare<string>();
  const made = setup({ prepare });
  const { time, service, executor, events } = made;
  const token = service.prepare("1", "e1");
  executor.start();
  await time.tickAsync(0);
  assert.equal(service.requests[0]?.warmHandover, true, "warm_handover sent with a prepare hook");
  assert.equal(calls.length, 1);
  const { ctx, done } = calls[0]!;
  assert.equal(ctx.shardKey, "1");
  assert.equal(ctx.namespace, "ns");
  assert.equal(ctx.executorId, "e1");
  assert.equal(ctx.fencingToken, token);
  assert.deepEqual(await ctx.currentOwner(), { executorId: "old", metadata: {} });
  assert.deepEqual(executor.runningShards, [], "prepared shards are not served");
  await time.tickAsync(300);
  assert.deepEqual(reportsOf(made), {}, "not reported while preparing");
  const sent = service.requests.length;
  done.resolve("state of 1");
  await time.tickAsync(0); // no time passes: the heartbeat goes at once
  assert.equal(service.requests.length, sent + 1);
  assert.deepEqual(reportsOf(made), { "1": { status: "SHARD_STATUS_PREPARED", shardLoad: 0 } });
  await time.tickAsync(1_000);
  assert.equal(reportsOf(made)["1"]?.status, "SHARD_STATUS_PREPARED", "in every heartbeat");
  assert.equal(calls.length, 1, "prepared once");
  assert.deepEqual(events.map((e) => e.type).slice(0, 2), ["preparing", "prepared"]);
  await made.shutdown();
});

Deno.test("warm handover: READY hands the prepared value to the processor with the READY token", async () => {
  const contexts: ShardContext[] = [];
  const made = setup({
    prepare: () => ({ rows: 42 }),
    processor: (ctx) => void contexts.push(ctx),
  });
  const { time, service, executor } = made;
  const token = service.prepare("1", "e1");
  executor.start();
  await time.tickAsync(0);
  assert.equal(reportsOf(made)["1"]?.status, "SHARD_STATUS_PREPARED");
  service.handOver("1");
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, ["1"]);
  assert.deepEqual(contexts[0]?.prepared, { rows: 42 });
  assert.equal(contexts[0]?.fencingToken, token);
  await time.tickAsync(1_000);
  assert.deepEqual(reportsOf(made), { "1": { status: "SHARD_STATUS_READY", shardLoad: 0 } });
  await made.shutdown();
});

Deno.test("warm handover: a move called off aborts the prepare's signal and disposes its value", async () => {
  let disposed = 0;
  let signal: AbortSignal | undefined;
  const made = setup({
    prepare: (ctx) => {
      signal = ctx.signal;
      return { [Symbol.asyncDispose]: () => Promise.resolve(void disposed++) };
    },
  });
  const { time, service, executor, events, types } = made;
  service.prepare("1", "e1");
  executor.start();
  await time.tickAsync(0);
  assert.equal(reportsOf(made)["1"]?.status, "SHARD_STATUS_PREPARED");
  service.cancelHandover("1");
  await time.tickAsync(1_000);
  assert.equal(signal?.aborted, true);
  assert.equal((signal?.reason as ShardStoppedError).reason, "handover-cancelled");
  assert.equal(disposed, 1);
  assert.deepEqual(types("prepare-cancelled"), ["1"]);
  assert.ok(
    events.some((e) => e.type === "prepare-cancelled" && e.reason === "handover-cancelled"),
  );
  await time.tickAsync(1_000);
  assert.deepEqual(reportsOf(made), {}, "no longer reported");
  assert.deepEqual(executor.runningShards, []);
  await made.shutdown();
});

Deno.test("warm handover: shutdown() aborts a prepare still running, and disposes what it returns late", async () => {
  let disposed = 0;
  const { calls, prepare } = manualPrepare<Disposable>();
  const made = setup({ prepare });
  const { time, service, executor, events } = made;
  service.prepare("1", "e1");
  executor.start();
  await time.tickAsync(0);
  const { ctx, done } = calls[0]!;
  const shutdown = made.shutdown();
  await time.tickAsync(0);
  assert.equal((ctx.signal.reason as ShardStoppedError).reason, "shutdown");
  done.resolve({ [Symbol.dispose]: () => void disposed++ }); // ignores its signal
  await shutdown;
  assert.equal(disposed, 1);
  assert.ok(events.some((e) => e.type === "prepare-cancelled" && e.reason === "shutdown"));
  assert.deepEqual(service.lastRequest("e1")?.shardStatusReports, {});
});

Deno.test("warm handover: READY while the prepare runs starts the processor after it, held NOT_RUNNING meanwhile", async () => {
  const contexts: ShardContext[] = [];
  const { calls, prepare } = manualPrepare<string>();
  const made = setup({ prepare, processor: (ctx) => void contexts.push(ctx) }, 2_000);
  const { time, service, executor } = made;
  service.prepare("1", "e1");
  executor.start();
  await time.tickAsync(0);
  service.handOver("1"); // e.g. the old owner died: the service completes the move cold
  await time.tickAsync(1_000);
  assert.equal(contexts.length, 0, "the processor waits for the prepare");
  await time.tickAsync(1_000);
  assert.deepEqual(reportsOf(made), { "1": { status: "SHARD_STATUS_NOT_RUNNING", shardLoad: 0 } });
  calls[0]!.done.resolve("late but useful");
  await time.tickAsync(0);
  assert.equal(contexts[0]?.prepared, "late but useful");
  assert.deepEqual(executor.runningShards, ["1"]);
  await time.tickAsync(1_000);
  assert.equal(reportsOf(made)["1"]?.status, "SHARD_STATUS_READY");
  await made.shutdown();
});

Deno.test("warm handover: a failed prepare is reported as processor-failed, never PREPARED; READY then starts cold", async () => {
  const contexts: ShardContext[] = [];
  let attempts = 0;
  const made = setup({
    prepare: () => {
      attempts++;
      throw new Error("no snapshot");
    },
    processor: (ctx) => void contexts.push(ctx),
  });
  const { time, service, executor, events } = made;
  service.prepare("1", "e1");
  executor.start();
  await time.tickAsync(3_000);
  const failed = events.find((e) => e.type === "processor-failed");
  assert.ok(failed?.type === "processor-failed" && failed.phase === "prepare");
  assert.match(String(failed.error), /no snapshot/);
  assert.equal(attempts, 1, "not retried while the service still lists it PREPARING");
  assert.deepEqual(reportsOf(made), {});
  service.handOver("1");
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, ["1"]);
  assert.equal(contexts[0]?.prepared, undefined, "cold");
  await made.shutdown();
});

Deno.test("warm handover: a prepare past prepareTimeoutMs fails, and its late value is disposed", async () => {
  let disposed = 0;
  const { calls, prepare } = manualPrepare<Disposable>();
  const made = setup({ prepare, prepareTimeoutMs: 500 });
  const { time, service, executor, events } = made;
  service.prepare("1", "e1");
  executor.start();
  await time.tickAsync(500);
  const failed = events.find((e) => e.type === "processor-failed");
  assert.ok(failed?.type === "processor-failed" && failed.phase === "prepare");
  assert.equal((failed.error as { code?: string }).code, "PROCESSOR_TIMEOUT");
  calls[0]!.done.resolve({ [Symbol.dispose]: () => void disposed++ });
  await time.tickAsync(1_000);
  assert.equal(disposed, 1);
  assert.deepEqual(reportsOf(made), {});
  await made.shutdown();
});

Deno.test("warm handover: without a prepare hook warm_handover is false and nothing is prepared", async () => {
  const made = setup();
  const { time, service, executor, events } = made;
  service.prepare("1", "e1");
  executor.start();
  await time.tickAsync(2_000);
  assert.ok(service.requests.every((r) => r.warmHandover === false));
  assert.ok(!events.some((e) => e.type === "preparing"));
  await made.shutdown();
});

Deno.test("the wire: NOT_RUNNING is sent as 4, PREPARED as 3, warm_handover as field 7", () => {
  const codec = contractMessage<ShardStatusReport, ShardStatusReport__Output>(
    "uber.cadence.sharddistributor.v1.ShardStatusReport",
  );
  // Field 1 (status) comes first: tag 0x08, then the enum's number.
  const bytes = (status: ShardStatusReport__Output["status"]) => [
    ...codec.serialize({ status, shardLoad: 0 }).subarray(0, 2),
  ];
  assert.deepEqual(bytes("SHARD_STATUS_NOT_RUNNING"), [0x08, 4]);
  assert.deepEqual(bytes("SHARD_STATUS_PREPARED"), [0x08, 3]);
  const request = executorService.Heartbeat.requestSerialize({
    namespace: "n",
    executorId: "e",
    warmHandover: true,
  });
  assert.deepEqual([...request.subarray(-2)], [7 << 3, 1]);
});

Deno.test("warm handover: prepares are timed and counted by outcome, with a span", async () => {
  const { meter, measurements } = recordingMeter();
  const { tracer, spans } = recordingTracer();
  const made = setup({ meter, tracer, prepare: () => "ok" });
  const { time, service, executor } = made;
  service.prepare("1", "e1");
  executor.start();
  await time.tickAsync(0);
  service.cancelHandover("1");
  await time.tickAsync(1_000);
  const prepares = measurements.filter((m) => m.name === "shard_manager.sdk.processor.prepares");
  assert.deepEqual(prepares.map((m) => m.attributes?.outcome), ["prepared", "cancelled"]);
  const durations = measurements.filter((m) =>
    m.name === "shard_manager.sdk.processor.prepare.duration"
  );
  assert.deepEqual(durations.map((m) => m.attributes?.outcome), ["ok"]);
  assert.ok(spans.some((s) => s.name === "shard_manager.shard.prepare"));
  await made.shutdown();
});

Deno.test("prepare and prepareTimeoutMs are checked up front", () => {
  const base = { addresses: "a:1", namespace: "ns", processor: () => {} };
  assert.throws(
    () => new Executor({ ...base, prepare: "yes" as unknown as () => void }),
    /prepare must be a function when given, got string/,
  );
  assert.throws(
    () => new Executor({ ...base, prepareTimeoutMs: 0 }),
    /prepareTimeoutMs must be a positive number of ms, got 0/,
  );
});

Deno.test("warm handover: currentOwner() rejects with UNIMPLEMENTED through a transport that cannot look owners up", async () => {
  const { calls, prepare } = manualPrepare<string>();
  const made = setup({ prepare });
  const { time, service } = made;
  const bare = new Executor({
    addresses: "unused:1",
    namespace: "ns",
    executorId: "e1",
    clock: made.clock,
    logger: false,
    transport: { heartbeat: (r, o) => service.heartbeat(r, o), close() {} },
    processor: () => {},
    prepare,
  });
  service.prepare("1", "e1");
  bare.start();
  await time.tickAsync(0);
  await assert.rejects(
    calls[0]!.ctx.currentOwner(),
    (e: { code?: string; message: string }) =>
      e.code === "UNIMPLEMENTED" && /shard "1".*no shardOwner method/.test(e.message),
  );
  calls[0]!.done.resolve("x");
  const down = bare.shutdown();
  await time.tickAsync(20_000);
  await down;
  await made.shutdown();
});
