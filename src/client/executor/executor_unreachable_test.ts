import assert from "node:assert/strict";
import { HeartbeatTimeoutError, type ShardStoppedError } from "./errors.ts";
import { testExecutor as setup } from "./_testing.ts";

Deno.test("keep mode: shards keep running while heartbeats fail, with backoff and events", async () => {
  const { time, service, executor, events, types, shutdown } = setup();
  executor.start();
  await time.tickAsync(0);
  service.down = new Error("14 UNAVAILABLE");
  await time.tickAsync(60_000);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"], "static stability");
  const failures = events.filter((e) => e.type === "heartbeat-failed");
  assert.ok(failures.length >= 60, `retries at least once per interval, got ${failures.length}`);
  assert.ok(failures.length <= 240, `with backoff, got ${failures.length}`);
  const first = failures[0];
  assert.ok(first?.type === "heartbeat-failed" && first.failures === 1);
  assert.equal(first.error.cause, service.down, "classified, with the transport's error as cause");
  assert.equal(first.error.code, "UNKNOWN");
  assert.equal(first.error.retryable, true);
  service.down = undefined;
  await time.tickAsync(1_000);
  const recovered = events.find((e) => e.type === "heartbeat-recovered");
  assert.ok(recovered?.type === "heartbeat-recovered" && recovered.failures === failures.length);
  assert.deepEqual(types("released"), []);
  await shutdown();
});

Deno.test("stop mode: processors stop afterMs past the last success and restart when it succeeds", async () => {
  const { time, service, executor, contexts, types, shutdown } = setup({
    onUnreachable: { mode: "stop", afterMs: 2_500 },
  });
  executor.start();
  await time.tickAsync(0); // the first success was sent at 0
  service.down = new Error("14 UNAVAILABLE");
  await time.tickAsync(2_400);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"]);
  await time.tickAsync(100);
  assert.deepEqual(executor.runningShards, []);
  assert.deepEqual(types("released"), ["1", "2", "3"]);
  assert.equal((contexts[0]!.signal.reason as ShardStoppedError).reason, "unreachable");
  service.down = undefined;
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"], "started again");
  assert.equal(contexts.length, 6);
  assert.ok(contexts.slice(3).every((c) => !c.signal.aborted));
  await shutdown();
});

Deno.test("stop mode: a successful heartbeat pushes the deadline back", async () => {
  const { time, service, executor, shutdown } = setup({
    onUnreachable: { mode: "stop", afterMs: 1_500 },
  });
  executor.start();
  await time.tickAsync(0);
  await time.tickAsync(1_000); // success sent at 1000
  service.down = new Error("down");
  await time.tickAsync(1_400);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"], "1500 ms after 1000, not after 0");
  await time.tickAsync(200);
  assert.deepEqual(executor.runningShards, []);
  await shutdown();
});

Deno.test("a heartbeat that hangs times out and the next one goes out", async () => {
  const { time, service, executor, events, shutdown } = setup({ heartbeatTimeoutMs: 1_500 });
  executor.start();
  await time.tickAsync(0);
  service.hang = true;
  await time.tickAsync(1_000 + 1_499);
  assert.equal(events.filter((e) => e.type === "heartbeat-failed").length, 0);
  await time.tickAsync(1);
  const failed = events.find((e) => e.type === "heartbeat-failed");
  assert.ok(failed?.type === "heartbeat-failed" && failed.error instanceof HeartbeatTimeoutError);
  const sent = service.requests.length;
  service.hang = false;
  await time.tickAsync(500);
  assert.equal(service.requests.length, sent + 1, "retried within a quarter interval");
  await shutdown();
});
