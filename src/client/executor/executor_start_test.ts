import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { encodeStatusDetails, STATUS_DETAILS_KEY } from "../../wire/error_details.ts";
import { ShardManagerError } from "../common/errors.ts";
import { testExecutor as setup } from "./_testing.ts";

/** What grpc-js rejects with when the service does not know the namespace. */
function namespaceNotFound(namespace: string): Error {
  const details = `Namespace "${namespace}" not found`;
  const bytes = Buffer.from(
    encodeStatusDetails(5, details, { type: "NamespaceNotFoundError", namespace }),
  );
  return Object.assign(new Error(`5 NOT_FOUND: ${details}`), {
    code: 5,
    details,
    metadata: { get: (key: string) => key === STATUS_DETAILS_KEY ? [bytes] : [] },
  });
}

Deno.test("start resolves with the executor once the first heartbeat is answered", async () => {
  const { time, service, executor, shutdown } = setup();
  service.hang = true;
  let started = false;
  const starting = executor.start().then((e) => started = e === executor);
  await time.tickAsync(500);
  assert.equal(started, false, "no answer yet");
  service.hang = false;
  await time.tickAsync(2_500); // the hung heartbeat times out; the next one is answered
  await starting;
  assert.equal(started, true);
  assert.deepEqual(executor.runningShards, ["1", "2", "3"]);
  assert.equal(await executor.start(), executor, "again: resolves at once");
  await shutdown();
});

Deno.test("start rejects at once on an unknown namespace, and leaves nothing running", async () => {
  const { time, service, executor, events, collected } = setup();
  service.down = namespaceNotFound("ordres");
  const error = await executor.start().catch((e) => e);
  assert.ok(error instanceof ShardManagerError);
  assert.equal(error.code, "NAMESPACE_NOT_FOUND");
  assert.equal(error.retryable, false);
  assert.equal(error.grpcCode, 5);
  assert.deepEqual(error.details, { type: "NamespaceNotFoundError", namespace: "ordres" });
  assert.match(error.message, /^Namespace "ordres" not found: check the name/);
  assert.equal(service.requests.length, 1, "one heartbeat, no retry");
  assert.equal(time.countTimers(), 0, "no timer left");
  await collected; // the events iterators ended
  assert.deepEqual(events.map((e) => e.type), ["heartbeat-failed"]);
  await executor.shutdown(); // resolves at once
  await assert.rejects(executor.start(), (e: ShardManagerError) => e.code === "CLOSED");
});

Deno.test("start keeps retrying transient failures until its timeoutMs, then shuts down", async () => {
  const { time, service, executor, collected } = setup();
  service.down = Object.assign(new Error("14 UNAVAILABLE: connect ECONNREFUSED"), {
    code: 14,
    details: "No connection established. Last error: connect ECONNREFUSED. Resolution note: ",
  });
  const outcome = executor.start({ timeoutMs: 5_000 }).catch((e) => e);
  await time.tickAsync(5_000);
  const error = await outcome;
  assert.equal(error.code, "TIMEOUT");
  assert.match(
    error.message,
    /^Executor e1 in namespace "ns" got no heartbeat answered within 5000 ms/,
  );
  assert.match(
    error.message,
    /last error: Cannot reach the service \(connection refused\)/,
  );
  assert.equal(error.cause.code, "UNAVAILABLE");
  assert.ok(service.requests.length >= 5, `retried, ${service.requests.length} heartbeats`);
  assert.equal(time.countTimers(), 0, "no timer left");
  await collected;
});

Deno.test("start rejects with the signal's reason when it aborts, cancelling the heartbeat in flight", async () => {
  const { time, service, executor } = setup();
  service.hang = true;
  const controller = new AbortController();
  const outcome = executor.start({ signal: controller.signal }).catch((e) => e);
  await time.tickAsync(100);
  controller.abort(new Error("gave up"));
  assert.equal((await outcome).message, "gave up");
  await time.tickAsync(0);
  assert.equal(time.countTimers(), 0, "the heartbeat's timeout is cleared too");
});

Deno.test("shutdown before the first answer rejects a pending start with CLOSED", async () => {
  const { time, service, executor } = setup({ heartbeatTimeoutMs: 1_000 });
  service.hang = true;
  const outcome = executor.start().catch((e) => e);
  const done = executor.shutdown();
  await time.tickAsync(20_000);
  await done;
  assert.equal((await outcome).code, "CLOSED");
});

Deno.test("a start that times out also ends other starts waiting, with CLOSED", async () => {
  const { time, service, executor } = setup();
  service.hang = true;
  const unbounded = executor.start().catch((e) => e);
  const bounded = executor.start({ timeoutMs: 1_000 }).catch((e) => e);
  await time.tickAsync(1_000);
  assert.equal((await bounded).code, "TIMEOUT");
  assert.equal((await unbounded).code, "CLOSED");
});
