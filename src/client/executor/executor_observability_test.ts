import assert from "node:assert/strict";
import {
  recordingLogger,
  recordingMeter,
  recordingTracer,
} from "../common/_recording_telemetry.ts";
import { Executor } from "./executor.ts";
import { testExecutor as setup } from "./_testing.ts";

Deno.test("a 7 s outage logs one warning when it starts and one info line when it ends", async () => {
  const { logger, lines } = recordingLogger();
  const { time, service, executor, events, shutdown } = setup({ logger });
  executor.start();
  await time.tickAsync(0);
  service.down = Object.assign(new Error("14 UNAVAILABLE: No connection established"), {
    code: 14,
  });
  await time.tickAsync(7_000);
  assert.ok(events.filter((e) => e.type === "heartbeat-failed").length > 5);
  service.down = undefined;
  await time.tickAsync(1_000);
  const outage = lines.filter((l) => l.level !== "debug");
  assert.deepEqual(outage.map((l) => l.level), ["warn", "info"]);
  assert.match(
    outage[0]!.message,
    /^Executor e1 heartbeats \(namespace "ns"\) failing with UNAVAILABLE: Cannot reach the service \(No connection established\)/,
  );
  assert.equal(outage[0]!.context?.namespace, "ns");
  assert.equal(outage[0]!.context?.executorId, "e1");
  assert.match(outage[1]!.message, /succeed again after [67]\.\d s and \d+ failed attempts$/);
  await shutdown();
});

Deno.test("an unknown namespace logs one error line, not one per heartbeat", async () => {
  const { logger, lines } = recordingLogger();
  const { time, service, executor, shutdown } = setup({ logger });
  service.down = Object.assign(new Error('5 NOT_FOUND: Namespace "nss" not found'), { code: 5 });
  const started = executor.start().then(() => undefined, (error: unknown) => error);
  await time.tickAsync(10_000);
  assert.equal((await started as { code?: string } | undefined)?.code, "NAMESPACE_NOT_FOUND");
  assert.deepEqual(lines.filter((l) => l.level !== "debug").map((l) => l.level), ["error"]);
  assert.equal(lines.find((l) => l.level === "error")?.context?.code, "NAMESPACE_NOT_FOUND");
  await shutdown();
});

Deno.test("a failing processor start logs one warning per shard, not one per retry", async () => {
  const { logger, lines } = recordingLogger();
  const { time, executor, shutdown } = setup({
    logger,
    processor: (ctx) => {
      if (ctx.shardKey === "2") throw new Error("no database");
    },
  });
  executor.start();
  await time.tickAsync(5_000);
  const warnings = lines.filter((l) => l.level === "warn");
  assert.deepEqual(warnings.map((l) => l.message), [
    "Shard 2's processor failed to start: no database",
  ]);
  await shutdown();
});

Deno.test("the meter gets heartbeat latency and failures, shards running, start and stop durations", async () => {
  const { meter, measurements, collect, callbacks } = recordingMeter();
  const { tracer, spans } = recordingTracer();
  const { time, service, executor, shutdown } = setup({
    meter,
    tracer,
    logger: false,
    processor: async () => {
      await Promise.resolve();
      return { stop: () => {} };
    },
  });
  executor.start();
  await time.tickAsync(1_000);
  service.down = Object.assign(new Error("unavailable"), { code: 14 });
  await time.tickAsync(1_000);
  service.down = undefined;
  await time.tickAsync(1_000);
  assert.deepEqual(collect(), [{
    name: "shard_manager.sdk.shards.running",
    value: 3,
    attributes: { namespace: "ns" },
  }]);
  const named = (name: string) => measurements.filter((m) => m.name === name);
  const beats = named("shard_manager.sdk.heartbeat.duration");
  assert.ok(beats.some((m) => m.attributes?.outcome === "ok"));
  assert.ok(beats.some((m) => m.attributes?.outcome === "error"));
  const failures = named("shard_manager.sdk.heartbeat.failures");
  assert.ok(failures.length >= 1);
  assert.deepEqual(failures[0]!.attributes, { namespace: "ns", code: "UNAVAILABLE" });
  assert.equal(named("shard_manager.sdk.processor.start.duration").length, 3);
  await shutdown();
  const stops = named("shard_manager.sdk.processor.stop.duration");
  assert.deepEqual(
    stops.map((m) => m.attributes),
    Array(3).fill({ namespace: "ns", outcome: "ok", reason: "unassigned" }),
    "drained: the service took them away",
  );
  assert.equal(callbacks(), 0, "the gauge's callback is removed at shutdown");
  const names = spans.map((s) => s.name);
  assert.equal(names.filter((n) => n === "shard_manager.shard.start").length, 3);
  assert.equal(names.filter((n) => n === "shard_manager.shard.stop").length, 3);
  assert.ok(names.includes("shard_manager.executor.start"));
  assert.ok(names.includes("shard_manager.executor.shutdown"));
  assert.ok(spans.every((s) => s.ended), "every span ended");
  assert.equal(
    spans.find((s) => s.name === "shard_manager.shard.start")?.attributes
      ?.["shard_manager.namespace"],
    "ns",
  );
});

Deno.test("a failed start ends its span with an error status", async () => {
  const { tracer, spans } = recordingTracer();
  const { time, executor, shutdown } = setup({
    tracer,
    logger: false,
    processor: () => {
      throw new Error("boom");
    },
  });
  executor.start();
  await time.tickAsync(0);
  const start = spans.find((s) => s.name === "shard_manager.shard.start");
  assert.deepEqual(start?.status, { code: 2, message: "boom" });
  assert.equal(start?.ended, true);
  await shutdown();
});

Deno.test("logger, meter and tracer options are checked at construction", () => {
  const base = { addresses: ["127.0.0.1:7943"], namespace: "ns", processor: () => {} };
  assert.throws(
    () => new Executor({ ...base, logger: { warn() {} } as never }),
    /logger must have debug, info, warn and error methods \(like console\), missing debug, info, error/,
  );
  assert.throws(
    () => new Executor({ ...base, meter: {} as never }),
    /meter must be an OpenTelemetry Meter \(from @opentelemetry\/api\), missing createHistogram/,
  );
  assert.throws(() => new Executor({ ...base, tracer: {} as never }), /tracer must be/);
  new Executor({ ...base, logger: console, meter: false, tracer: false });
});
