import assert from "node:assert/strict";
import { waitForDrain } from "./drain_wait.ts";
import { SmctlError } from "./errors.ts";
import type { ExecutorModel } from "./model.ts";

const executor = (id: string, shardCount: number, drainedBy: string[] = []): ExecutorModel => ({
  id,
  status: "ACTIVE",
  alive: true,
  heartbeatAgeMs: 0,
  lastHeartbeat: null,
  shardCount,
  totalLoad: shardCount,
  drained: drainedBy.length > 0,
  drainedBy,
  metadata: {},
});

const byDrain = (e: ExecutorModel) => e.drainedBy.includes("id:a");

Deno.test("waitForDrain reports progress until the drained executor is empty", async () => {
  const pictures = [
    [executor("a", 6, ["id:a"]), executor("b", 4)],
    [executor("a", 3, ["id:a"]), executor("b", 7)],
    [executor("a", 0, ["id:a"]), executor("b", 10)],
  ];
  const progress: [number, number][] = [];
  const result = await waitForDrain({
    fetch: () => Promise.resolve(pictures.shift() ?? []),
    matches: byDrain,
    initialShards: 6,
    timeoutMs: 5_000,
    pollMs: 1,
    onProgress: (moved, total) => progress.push([moved, total]),
  });
  assert.deepEqual(progress, [[0, 6], [3, 6], [6, 6]]);
  assert.deepEqual(result.executors, ["a"]);
  assert.equal(result.completed, true);
  assert.equal(result.movedShards, 6);
  assert.deepEqual(result.remaining, {});
});

Deno.test("waitForDrain retries unavailability and stops at the timeout with what remains", async () => {
  let clock = 0;
  let calls = 0;
  const result = await waitForDrain({
    fetch: () => {
      clock += 100;
      calls++;
      return calls === 2
        ? Promise.reject(new SmctlError("cannot reach", 4))
        : Promise.resolve([executor("a", 2, ["id:a"])]);
    },
    matches: byDrain,
    timeoutMs: 450,
    pollMs: 1,
    now: () => clock,
  });
  assert.equal(result.completed, false);
  assert.equal(result.remainingShards, 2);
  assert.deepEqual(result.remaining, { a: 2 });
  assert.ok(calls >= 4, `polled ${calls} times`);
});

Deno.test("waitForDrain rejects other failures at once and ends with code 130 when interrupted", async () => {
  await assert.rejects(
    waitForDrain({
      fetch: () => Promise.reject(new SmctlError("namespace gone", 3)),
      matches: byDrain,
      timeoutMs: 5_000,
    }),
    (error) => error instanceof SmctlError && error.exitCode === 3,
  );
  const stop = new AbortController();
  const polled = Promise.withResolvers<void>();
  const waiting = waitForDrain({
    fetch: () => {
      polled.resolve();
      return Promise.resolve([executor("a", 1, ["id:a"])]);
    },
    matches: byDrain,
    timeoutMs: 60_000,
    pollMs: 10_000,
    signal: stop.signal,
  });
  await polled.promise; // interrupted between polls, 10 s from the next
  stop.abort();
  await assert.rejects(waiting, (error) => error instanceof SmctlError && error.exitCode === 130);
});

Deno.test("nothing to move is done at once", async () => {
  const result = await waitForDrain({
    fetch: () => Promise.resolve([executor("b", 5)]),
    matches: byDrain,
    timeoutMs: 1_000,
  });
  assert.equal(result.completed, true);
  assert.equal(result.initialShards, 0);
});
