import assert from "node:assert/strict";
import { testExecutor as setup } from "./_testing.ts";
import type { HeartbeatTransport } from "./transport.ts";

const SLOW = { heartbeatIntervalMs: 5_000 };

/** Lets answers, hints and processor starts that need no time run. */
async function settle(time: { tickAsync(ms: number): Promise<number> }): Promise<void> {
  for (let i = 0; i < 10; i++) await time.tickAsync(0);
}

Deno.test("a hint makes the executor heartbeat at once and see its new assignment", async () => {
  const { time, service, executor, shutdown } = setup(SLOW, {
    shards: ["1", "2", "3"],
    hints: true,
    manual: true,
  });
  void executor.start();
  await settle(time);
  assert.deepEqual(service.hintStreams, ["e1"], "the stream opens after the first answer");
  service.rebalance(); // places the shards, and hints e1
  await settle(time);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"]);
  const sent = service.requests.length;
  service.shards.delete("3");
  service.rebalance(); // the move, and its hint to e1
  await time.tickAsync(10); // far less than the 5 s interval
  assert.deepEqual(executor.runningShards, ["1", "2"]);
  assert.equal(service.requests.length, sent + 1, "one heartbeat for one hint");
  await shutdown();
  assert.equal(service.openHintStreams("e1"), 0, "closed by shutdown");
});

Deno.test("without assignmentHints the executor opens no stream and learns at its next heartbeat", async () => {
  const { time, service, executor, shutdown } = setup({ ...SLOW, assignmentHints: false }, {
    shards: ["1", "2", "3"],
    hints: true,
    manual: true,
  });
  void executor.start();
  await settle(time);
  service.rebalance();
  await time.tickAsync(5_000); // no hint: the next heartbeat brings them
  await settle(time);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"]);
  const sent = service.requests.length;
  service.shards.delete("3");
  service.rebalance();
  await time.tickAsync(1_000);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"], "not yet: no hint");
  assert.equal(service.requests.length, sent);
  await time.tickAsync(5_000);
  await settle(time);
  assert.deepEqual(executor.runningShards, ["1", "2"]);
  assert.deepEqual(service.hintStreams, []);
  await shutdown();
});

Deno.test("hints during a heartbeat in flight make one more heartbeat, never two in flight", async () => {
  const { time, service, executor, shutdown } = setup(SLOW, { shards: ["1"], hints: true });
  void executor.start();
  await settle(time);
  const sent = service.requests.length;
  let release!: () => void;
  service.delay = new Promise<void>((resolve) => release = resolve);
  service.hint("e1"); // starts a heartbeat, which now waits
  await time.tickAsync(1);
  assert.equal(service.requests.length, sent + 1);
  for (let i = 0; i < 5; i++) service.hint("e1");
  await time.tickAsync(100);
  assert.equal(service.requests.length, sent + 1, "still one in flight");
  service.delay = undefined;
  release();
  await time.tickAsync(10);
  assert.equal(service.requests.length, sent + 2, "five hints, one more heartbeat");
  await time.tickAsync(1_000);
  assert.equal(service.requests.length, sent + 2);
  await shutdown();
});

Deno.test("shutdown ends as soon as a hint says the shards moved, not at the next heartbeat", async () => {
  const { time, service, executor } = setup(SLOW, {
    shards: ["1", "2"],
    hints: true,
    manual: true,
  });
  void executor.start();
  await settle(time);
  service.rebalance();
  await settle(time);
  assert.deepEqual(executor.runningShards, ["1", "2"]);
  let done = false;
  const shutdown = executor.shutdown().then(() => done = true);
  await time.tickAsync(50); // DRAINING is answered; the service has not moved anything yet
  assert.equal(done, false);
  assert.equal(service.lastRequest("e1")?.status, "EXECUTOR_STATUS_DRAINING");
  const startedAt = time.now;
  service.rebalance(); // e1 is DRAINING: its shards go, and it is hinted
  for (let i = 0; i < 20 && !done; i++) await time.tickAsync(5);
  await shutdown;
  assert.ok(time.now - startedAt < 100, `took ${time.now - startedAt} ms after the move`);
  assert.equal(service.lastRequest("e1")?.status, "EXECUTOR_STATUS_DRAINED");
});

Deno.test("a service without the hint stream (UNIMPLEMENTED) is polled as before, and asked once", async () => {
  const { time, service, executor, shutdown } = setup({ heartbeatIntervalMs: 1_000 }, {
    shards: ["1"],
  });
  let asked = 0;
  // deno-lint-ignore require-yield -- fails before its first hint
  async function* unimplemented(): AsyncGenerator<string> {
    asked++;
    throw Object.assign(new Error("12 UNIMPLEMENTED: The server does not implement"), {
      code: 12,
    });
  }
  (service as { watchAssignment?: HeartbeatTransport["watchAssignment"] }).watchAssignment =
    unimplemented;
  void executor.start();
  await time.tickAsync(10_500);
  assert.equal(asked, 1);
  assert.ok(service.requests.length >= 10, `${service.requests.length} heartbeats`);
  assert.deepEqual(executor.runningShards, ["1"]);
  await shutdown();
});

Deno.test("a hint stream that fails is reopened with backoff, and hints work again", async () => {
  const { time, service, executor, shutdown } = setup(SLOW, { shards: ["1"], hints: true });
  const watch = service.watchAssignment!;
  let failing = true;
  let opened = 0;
  (service as { watchAssignment?: HeartbeatTransport["watchAssignment"] }).watchAssignment =
    async function* (request, signal) {
      opened++;
      if (failing) throw Object.assign(new Error("14 UNAVAILABLE: gone"), { code: 14 });
      yield* watch(request, signal);
    };
  void executor.start();
  await time.tickAsync(3_000);
  assert.ok(opened >= 2, `reopened (${opened} attempts)`);
  failing = false;
  await time.tickAsync(20_000);
  const sent = service.requests.length;
  const attempts = opened;
  service.hint("e1");
  await time.tickAsync(10);
  assert.equal(service.requests.length, sent + 1);
  assert.equal(opened, attempts, "the open stream stays open");
  await shutdown();
});
