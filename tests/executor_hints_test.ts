/**
 * Assignment hints (`WatchExecutorAssignment`) against a real etcd and real
 * gRPC: an opted-in executor hears of a change to its assignment at once and
 * heartbeats, instead of waiting for its next interval; one that does not
 * opt in is unaffected. The bounds asserted are generous (a fraction of the
 * 5 s heartbeat interval), not benchmarks: BENCHMARKS.md has the figures.
 */
import assert from "node:assert/strict";
import { Executor } from "../src/client/executor/mod.ts";
import {
  grpcHeartbeatTransport,
  type HeartbeatTransport,
} from "../src/client/executor/transport.ts";
import type { WatchExecutorAssignmentResponse__Output } from "../src/wire/proto.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { call, type Clients, connect, grpc, heartbeat } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

const INTERVAL_MS = 5_000;

/** An SDK executor with a 5 s heartbeat interval that records its processors. */
function slowExecutor(address: string, id: string, options: { hints?: boolean } = {}) {
  const running = new Set<string>();
  const beats: number[] = [];
  const base = grpcHeartbeatTransport([address]);
  // Records when each heartbeat is sent; keeps (or drops) the stream of hints.
  const transport: HeartbeatTransport = {
    heartbeat: (request, callOptions) => {
      beats.push(performance.now());
      return base.heartbeat(request, callOptions);
    },
    ...(options.hints === false ? {} : { watchAssignment: base.watchAssignment!.bind(base) }),
    close: () => base.close(),
  };
  const executor = new Executor({
    addresses: address,
    transport,
    namespace: "ns",
    executorId: id,
    heartbeatIntervalMs: INTERVAL_MS,
    heartbeatTimeoutMs: 2_000,
    processor: (ctx) => {
      running.add(ctx.shardKey);
      return { stop: () => void running.delete(ctx.shardKey) };
    },
  });
  return { executor, running, beats };
}

/** A real etcd and one instance with a namespace of `shards` shards (TTL above the interval). */
async function setUp(name: string, shards: number, extra: Record<string, unknown> = {}) {
  const etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix(name),
    namespaces: [{ name: "ns", type: "fixed", shardNum: shards, ...extra }],
    process: { heartbeatTTL: "20s" },
  }));
  const clients = connect(instance.server.address);
  return {
    address: instance.server.address,
    instance,
    clients,
    async [Symbol.asyncDispose]() {
      clients.close();
      await instance.stop();
      await etcd[Symbol.asyncDispose]();
    },
  };
}

function drain(clients: Clients, executorId: string) {
  return call(clients.api, "drainExecutors", {
    namespace: "ns",
    executorId,
    reason: "hints test",
    force: true,
  });
}

/** Opens a raw hint stream; resolves its messages and its end (status code, 0 for OK). */
function rawStream(clients: Clients, namespace: string, executorId: string) {
  const messages: WatchExecutorAssignmentResponse__Output[] = [];
  const stream = clients.executor.watchExecutorAssignment({ namespace, executorId });
  const ended = new Promise<{ code: number; details: string }>((resolve) => {
    stream.on("error", (e: grpc.ServiceError) => resolve({ code: e.code, details: e.details }));
    stream.on("end", () => resolve({ code: 0, details: "" }));
  });
  stream.on("data", (m: WatchExecutorAssignmentResponse__Output) => messages.push(m));
  return { messages, ended, cancel: () => stream.cancel() };
}

Deno.test("an opted-in executor hears of a drain long before its next heartbeat, and so does the new owner", async () => {
  await using env = await setUp("hints-drain", 4);
  const a = slowExecutor(env.address, "a");
  const b = slowExecutor(env.address, "b");
  await a.executor.start();
  await b.executor.start();
  await eventually(
    () => a.running.size === 2 && b.running.size === 2,
    20_000,
    "2 shards each",
  );
  await eventually(
    () => env.instance.manager.routing.hintSubscribers("ns") === 2,
    5_000,
    "streams",
  );
  // An executor that owns nothing and follows its hints: a change elsewhere does not reach it.
  await heartbeat(env.clients, {
    namespace: "ns",
    executorId: "z",
    status: "EXECUTOR_STATUS_DRAINING",
  });
  const z = rawStream(env.clients, "ns", "z");
  await eventually(() => z.messages.length === 1, 5_000, "z's first hint");
  const beatsBefore = a.beats.length;

  const drainedAt = performance.now();
  await drain(env.clients, "a");
  await eventually(() => a.running.size === 0 && b.running.size === 4, 1_500, "the move seen");
  const tookMs = performance.now() - drainedAt;
  assert.ok(tookMs < 1_500, `took ${tookMs} ms`);
  assert.ok(a.beats.length > beatsBefore, "a heartbeat at once");
  assert.equal(z.messages.length, 1, "z's assignment did not change: no hint");
  z.cancel();
  await b.executor.shutdown();
  await a.executor.shutdown();
  await eventually(() => env.instance.manager.routing.hintSubscribers("ns") === 0, 5_000, "closed");
});

Deno.test("shutdown() of an executor with a 5 s heartbeat ends as soon as its shards moved", async () => {
  await using env = await setUp("hints-shutdown", 4);
  const a = slowExecutor(env.address, "a");
  const b = slowExecutor(env.address, "b");
  await a.executor.start();
  await b.executor.start();
  await eventually(() => a.running.size === 2 && b.running.size === 2, 20_000, "2 shards each");
  const started = performance.now();
  await a.executor.shutdown();
  const tookMs = performance.now() - started;
  assert.ok(tookMs < INTERVAL_MS / 2, `shutdown took ${tookMs} ms`);
  assert.equal(a.running.size, 0);
  await eventually(() => b.running.size === 4, 1_500, "b took the shards");
  await b.executor.shutdown();
});

Deno.test("exclusive: the next owner starts promptly after the old one's shutdown", async () => {
  await using env = await setUp("hints-exclusive", 4, { ownership: "exclusive" });
  const a = slowExecutor(env.address, "a");
  const b = slowExecutor(env.address, "b");
  await a.executor.start();
  await b.executor.start();
  await eventually(() => a.running.size === 2 && b.running.size === 2, 20_000, "2 shards each");
  const started = performance.now();
  await a.executor.shutdown();
  await eventually(() => b.running.size === 4, 2_500, "b took the shards");
  const tookMs = performance.now() - started;
  assert.ok(tookMs < INTERVAL_MS / 2, `the move took ${tookMs} ms`);
  await b.executor.shutdown();
});

Deno.test("an executor that does not open the stream heartbeats at its interval only, as before", async () => {
  await using env = await setUp("hints-off", 2);
  const a = slowExecutor(env.address, "a", { hints: false });
  await a.executor.start();
  await eventually(() => a.running.size === 2, 20_000, "a holds both shards");
  const b = slowExecutor(env.address, "b", { hints: false });
  await b.executor.start();
  await drain(env.clients, "a");
  await eventually(() => a.running.size === 0, 2 * INTERVAL_MS, "a learns at a heartbeat");
  assert.equal(env.instance.manager.routing.hintSubscribers("ns"), 0, "no stream opened");
  // Every heartbeat came at the interval (jittered by 10%): none was sent early.
  const gaps = a.beats.slice(1).map((t, i) => t - a.beats[i]!);
  assert.ok(gaps.every((gap) => gap > INTERVAL_MS * 0.85), `gaps ${gaps.map(Math.round)}`);
  await a.executor.shutdown();
  await b.executor.shutdown();
});

Deno.test("the hint stream refuses an unknown namespace or executor, a bad request and a fifth stream, clearly", async () => {
  await using env = await setUp("hints-errors", 2);
  const nope = await rawStream(env.clients, "nope", "x").ended;
  assert.equal(nope.code, grpc.status.NOT_FOUND);
  assert.match(nope.details, /Namespace "nope" not found/);
  const ghost = await rawStream(env.clients, "ns", "ghost").ended;
  assert.equal(ghost.code, grpc.status.NOT_FOUND);
  assert.match(ghost.details, /Executor "ghost" not found in namespace "ns"/);
  const empty = await rawStream(env.clients, "ns", "").ended;
  assert.equal(empty.code, grpc.status.INVALID_ARGUMENT);
  assert.match(empty.details, /executor_id/);

  await heartbeat(env.clients, {
    namespace: "ns",
    executorId: "e",
    status: "EXECUTOR_STATUS_ACTIVE",
  });
  const open = Array.from({ length: 4 }, () => rawStream(env.clients, "ns", "e"));
  await eventually(() => open.every((s) => s.messages.length >= 1), 5_000, "four streams open");
  const fifth = await rawStream(env.clients, "ns", "e").ended;
  assert.equal(fifth.code, grpc.status.RESOURCE_EXHAUSTED);
  assert.match(fifth.details, /"e" already has 4 open \(at most 4\)/);
  for (const s of open) s.cancel();
  await eventually(() => env.instance.manager.routing.hintSubscribers("ns") === 0, 5_000, "freed");
});

Deno.test("hint streams end when the instance stops, and the stop does not wait for them", async () => {
  const etcd = await startEtcd();
  try {
    const instance = await startInProcess(testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("hints-stop"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: 2 }],
    }));
    const clients = connect(instance.server.address);
    try {
      await heartbeat(clients, {
        namespace: "ns",
        executorId: "e",
        status: "EXECUTOR_STATUS_ACTIVE",
      });
      const stream = rawStream(clients, "ns", "e");
      await eventually(() => stream.messages.length >= 1, 5_000, "the first hint");
      const started = performance.now();
      await instance.stop();
      const tookMs = performance.now() - started;
      const end = await stream.ended;
      assert.ok([0, grpc.status.UNAVAILABLE].includes(end.code), `ended with ${end.code}`);
      assert.ok(tookMs < 3_000, `stop took ${tookMs} ms`);
    } finally {
      clients.close();
    }
  } finally {
    await etcd[Symbol.asyncDispose]();
  }
});
