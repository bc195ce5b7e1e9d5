import assert from "node:assert/strict";
import { fakeClock } from "../../../core/fake_clock.ts";
import type { ExecutorStateView } from "../../../routing/views.ts";
import { type ExecutorSample, ExecutorSamples } from "./executor_samples.ts";
import { runExecutorSampler, type SampleSource } from "./executor_sampler.ts";

const HOUR = 60 * 60 * 1_000;

function view(executorId: string, shards: number, load: number): ExecutorStateView {
  return {
    executorId,
    status: "ACTIVE",
    lastHeartbeatMs: 0,
    metadata: {},
    assignedShards: Array.from({ length: shards }, (_, i) => ({
      shardKey: String(i),
      load: load / shards,
      assignedRevision: 1,
    })),
    drainedBy: [],
    heartbeatAgeMs: 0,
    alive: true,
    liveness: "alive",
    totalLoad: load,
  };
}

Deno.test("executor samples keep one hour of 15 s samples: 240 points, the oldest dropped first", () => {
  const samples = new ExecutorSamples();
  for (let i = 0; i < 300; i++) {
    samples.record("ns", i * 15_000, [{ executorId: "e1", shardCount: i, load: i / 2 }]);
  }
  const trends = samples.trends("ns");
  assert.equal(trends.times.length, 240);
  assert.equal(trends.times[0], 60 * 15_000);
  assert.equal(trends.times.at(-1), 299 * 15_000);
  assert.equal(trends.executors[0]?.shards.length, 240);
  assert.equal(trends.executors[0]?.shards[0], 60);
  assert.equal(trends.executors[0]?.loads.at(-1), 149.5);
});

Deno.test("executor samples forget an executor unseen for over the window, and keep gaps before", () => {
  const samples = new ExecutorSamples({ intervalMs: 15_000, windowMs: HOUR });
  const both: ExecutorSample[] = [
    { executorId: "a", shardCount: 1, load: 1 },
    { executorId: "b", shardCount: 2, load: 2 },
  ];
  samples.record("ns", 0, both);
  samples.record("ns", 15_000, both.slice(0, 1));
  assert.deepEqual(samples.trends("ns").executors.map((e) => [e.executorId, e.shards]), [
    ["a", [1, 1]],
    ["b", [2, null]],
  ]);
  for (let t = 30_000; t <= HOUR; t += 15_000) samples.record("ns", t, both.slice(0, 1));
  assert.deepEqual(samples.trends("ns").executors.map((e) => e.executorId), ["a", "b"]);
  samples.record("ns", HOUR + 15_000, both.slice(0, 1));
  assert.deepEqual(samples.trends("ns").executors.map((e) => e.executorId), ["a"]);
});

Deno.test("executor samples sample at most maxExecutors per namespace and say how many there were", () => {
  const samples = new ExecutorSamples({ maxExecutors: 2 });
  const three = ["e1", "e2", "e3"].map((executorId) => ({ executorId, shardCount: 1, load: 0 }));
  samples.record("ns", 0, three);
  const trends = samples.trends("ns");
  assert.deepEqual(trends.executors.map((e) => e.executorId), ["e1", "e2"]);
  assert.equal(trends.executorsSeen, 3);
  assert.equal(trends.maxExecutors, 2);
});

Deno.test("executor samples reject a non-positive interval, window or cap", () => {
  assert.throws(
    () => new ExecutorSamples({ intervalMs: 0 }),
    /intervalMs must be a positive number, got 0/,
  );
  assert.throws(() => new ExecutorSamples({ windowMs: -1 }), RangeError);
  assert.throws(() => new ExecutorSamples({ maxExecutors: NaN }), RangeError);
});

Deno.test("executor samples answer an unknown namespace with no samples, and forget deleted ones", () => {
  const samples = new ExecutorSamples();
  assert.deepEqual(samples.trends("nope").times, []);
  samples.record("old", 0, []);
  samples.retain(new Set(["new"]));
  assert.deepEqual(samples.trends("old").times, []);
});

Deno.test("the sampler samples every namespace at its interval, and a gap while the store is unreachable", async () => {
  const time = fakeClock(1_000_000);
  let reachable = true;
  let names = ["orders", "jobs"];
  const source: SampleSource = {
    health: {
      get status() {
        return { storeReachable: reachable };
      },
    },
    routing: {
      listNamespaces: () => names.map((name) => ({ name })),
      getNamespaceState: (ns) => ns === "orders" ? [view("e1", 4, 8), view("e2", 2, 1)] : [],
    },
  };
  const samples = new ExecutorSamples({ intervalMs: 15_000 });
  const stop = new AbortController();
  const running = runExecutorSampler(source, samples, { clock: time.clock, signal: stop.signal });
  await time.tick(15_000);
  reachable = false;
  await time.tick(15_000);
  reachable = true;
  names = ["orders"];
  await time.tick(15_000);
  stop.abort();
  await running;
  const orders = samples.trends("orders");
  assert.deepEqual(orders.times, [1_000_000, 1_015_000, 1_030_000, 1_045_000]);
  assert.deepEqual(orders.executors.map((e) => e.shards), [[4, 4, null, 4], [2, 2, null, 2]]);
  assert.deepEqual(orders.executors[0]?.loads, [8, 8, null, 8]);
  assert.deepEqual(samples.trends("jobs").times, [], "a namespace no longer served is forgotten");
  assert.equal(time.pending(), 0, "no timer left once stopped");
});
