import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { silentLogger } from "../core/logger.ts";
import type { ExecutorWrite } from "../core/types.ts";
import type { Store } from "../store/store.ts";
import { fakeClock } from "../core/fake_clock.ts";
import { MemoryExecutorStore } from "./_testing.ts";
import { RefreshBuffer } from "./refresh_buffer.ts";

const write = (executorId: string, timestampMs: number): ExecutorWrite => ({
  executorId,
  heartbeat: { status: "ACTIVE", timestampMs },
});

function recordingStore(fail: () => boolean): { store: Store; calls: [string, string[]][] } {
  const calls: [string, string[]][] = [];
  const store = {
    writeExecutors(namespace: string, writes: readonly ExecutorWrite[]) {
      calls.push([namespace, writes.map((w) => `${w.executorId}@${w.heartbeat.timestampMs}`)]);
      return fail() ? Promise.reject(new Error("etcd down")) : Promise.resolve(1);
    },
  } as unknown as Store;
  return { store, calls };
}

Deno.test("refresh buffer writes each executor's latest refresh once per flush, per namespace", async () => {
  const { store, calls } = recordingStore(() => false);
  const buffer = new RefreshBuffer(store, { flushMs: 60_000, logger: silentLogger });
  buffer.add("a", write("e1", 1));
  buffer.add("a", write("e1", 2));
  buffer.add("a", write("e2", 1));
  buffer.add("b", write("e1", 5));
  buffer.drop("a", "e2");
  assert.equal(buffer.size, 2);
  await buffer.flush();
  assert.deepEqual(calls, [["a", ["e1@2"]], ["b", ["e1@5"]]]);
  await buffer.flush();
  assert.equal(calls.length, 2, "nothing left to write");
  await buffer.close();
});

Deno.test("refresh buffer retries a failed flush, unless a newer refresh replaced it", async () => {
  let down = true;
  const { store, calls } = recordingStore(() => down);
  const buffer = new RefreshBuffer(store, { flushMs: 60_000, logger: silentLogger });
  buffer.add("a", write("e1", 1));
  buffer.add("a", write("e2", 1));
  await buffer.flush();
  assert.match(String(buffer.failure), /etcd down/);
  assert.equal(buffer.size, 2, "both kept for the next flush: they were answered");
  down = false;
  buffer.add("a", write("e1", 2)); // a newer renewal of e1 replaces the failed one
  await buffer.flush();
  assert.equal(buffer.failure, undefined);
  assert.deepEqual(calls.at(-1), ["a", ["e1@2", "e2@1"]]);
  assert.equal(buffer.size, 0);
  await buffer.close();
});

Deno.test("refresh buffer flushes on its timer and once more on close", async () => {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    const { store, calls } = recordingStore(() => false);
    const buffer = new RefreshBuffer(store, { flushMs: 10, logger: silentLogger });
    buffer.add("a", write("e1", 1));
    await clock.tickAsync(9);
    assert.equal(calls.length, 0, "not before flushMs");
    await clock.tickAsync(1);
    assert.deepEqual(calls, [["a", ["e1@1"]]]);
    buffer.add("a", write("e1", 2));
    await buffer.close();
    assert.deepEqual(calls.at(-1), ["a", ["e1@2"]]);
  } finally {
    clock.uninstall();
  }
});

Deno.test("refresh buffer flushes every flushMs of its clock; a slow flush delays the next, never queues", async () => {
  const time = fakeClock();
  const store = new MemoryExecutorStore(time.clock);
  const buffer = new RefreshBuffer(store, {
    flushMs: 100,
    logger: silentLogger,
    clock: time.clock,
  });
  buffer.add("a", write("e1", 1));
  await time.tick(99);
  assert.equal(store.calls.length, 0);
  await time.tick(1);
  assert.equal(store.calls.length, 1);
  store.hold(); // the next flush takes 1 s
  buffer.add("a", write("e1", 2));
  await time.tick(100);
  assert.equal(store.calls.length, 2);
  buffer.add("a", write("e1", 3));
  await time.tick(1_000);
  assert.equal(store.calls.length, 2, "no flush starts while one is in flight");
  store.release();
  await time.settle();
  await time.tick(99);
  assert.equal(store.calls.length, 2, "the next tick is a period after the slow flush ended");
  await time.tick(1);
  assert.deepEqual(store.calls.at(-1)?.writes.map((w) => w.heartbeat.timestampMs), [3]);
  await buffer.close();
});

Deno.test("refresh buffer stops on its signal without a last flush", async () => {
  const time = fakeClock();
  const store = new MemoryExecutorStore(time.clock);
  const stop = new AbortController();
  const buffer = new RefreshBuffer(store, {
    flushMs: 100,
    logger: silentLogger,
    clock: time.clock,
    signal: stop.signal,
  });
  buffer.add("a", write("e1", 1));
  stop.abort();
  await buffer.close();
  await time.tick(1_000);
  assert.equal(store.calls.length, 0);
  assert.equal(time.pending(), 0);
  assert.throws(
    () => new RefreshBuffer(store, { flushMs: 0, logger: silentLogger }),
    /flushMs must be positive, got 0/,
  );
});
