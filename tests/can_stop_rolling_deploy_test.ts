// deno-lint-ignore-file no-console -- the measured waits and handovers are printed for whoever runs the test
/**
 * A rolling deploy of 10 executors asking CanStopExecutors before each batch
 * (issue 41), against real etcd and gRPC: each executor serves a fixed
 * available, a fixed exclusive and an ephemeral namespace. The deploy tool
 * asks about a batch of 3 until allowed, stops it gracefully (DRAINING, its
 * shards hand over, DRAINED, exit) and starts the new version at once; as soon
 * as the service has seen the batch stop (each executor leaving), it asks
 * about the next batch without waiting for the handover, as a pipelined
 * deploy (or preStop hooks) would. A watch of each namespace checks that no
 * shard is ever without an owner, and each batch waits no longer than the
 * previous batch's handover took.
 */
import assert from "node:assert/strict";
import type {
  CanStopExecutorsResponse__Output,
  WatchNamespaceStateResponse__Output,
} from "../src/wire/proto.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, type Clients, connect, watch } from "./support/grpc_clients.ts";
import { eventually } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { runWarmExecutor, type WarmExecutor } from "./support/warm_executors.ts";

const range = (n: number, prefix = "") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
/** The shards of each namespace: fixed available, fixed exclusive, ephemeral (made by lookups). */
const SHARDS: Record<string, readonly string[]> = {
  orders: range(40),
  jobs: range(10),
  tenants: range(12, "tenant-"),
};
const IDS = Array.from({ length: 10 }, (_, i) => `e${i}`);
const BATCHES = [IDS.slice(0, 3), IDS.slice(3, 6), IDS.slice(6, 9), IDS.slice(9)];
/** What a batch may wait beyond the previous batch's handover: a heartbeat, a flush and a poll. */
const SLACK_MS = 1_500;

function namespace(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    type: "fixed",
    shardNum: SHARDS[name]!.length,
    settleWindow: "0s",
    shardCooldown: "0s",
    minImprovement: 0,
    ...extra,
  };
}

/** The shards of a full picture that no executor holds. */
function unowned(ns: string, message: WatchNamespaceStateResponse__Output): string[] {
  const held = new Set(message.executors.flatMap((e) => e.shards.map((s) => s.shardKey)));
  return SHARDS[ns]!.filter((s) => !held.has(s));
}

/** One executor process serving both namespaces. */
class Host {
  readonly id: string;
  readonly parts: WarmExecutor[];
  constructor(clients: Clients, id: string) {
    this.id = id;
    this.parts = Object.keys(SHARDS).map((ns) =>
      runWarmExecutor(clients, ns, id, { intervalMs: 200, prepareMs: 300 })
    );
  }

  /** A graceful stop, as the SDK makes on SIGTERM: DRAINING until it holds nothing, then DRAINED. */
  async shutdown(): Promise<void> {
    for (const p of this.parts) p.status = "EXECUTOR_STATUS_DRAINING";
    await eventually(() => this.parts.every((p) => p.told.size === 0), 30_000, `${this.id} empty`);
    for (const p of this.parts) p.status = "EXECUTOR_STATUS_DRAINED";
    const beats = this.parts.map((p) => p.beats);
    await eventually(() => this.parts.every((p, i) => p.beats > beats[i]!), 5_000, "DRAINED sent");
    await Promise.all(this.parts.map((p) => p.stop()));
  }
}

Deno.test("a rolling deploy that asks can-stop never leaves a shard unowned nor waits past a handover", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("rolling-deploy"),
    namespaces: [
      namespace("orders"),
      namespace("jobs", { ownership: "exclusive" }),
      { ...namespace("tenants", { type: "ephemeral" }), shardNum: undefined },
    ],
  }));
  const clients = connect(instance.server.address);
  const hosts = new Map(IDS.map((id) => [id, new Host(clients, id)]));
  const watches = Object.keys(SHARDS).map((ns) => ({ ns, stream: watch(clients, ns) }));
  try {
    for (const shardKey of SHARDS.tenants!) {
      await eventually(
        async () => {
          try {
            await call(clients.api, "getShardOwner", { namespace: "tenants", shardKey });
            return true;
          } catch {
            return false; // no executor registered yet
          }
        },
        15_000,
        `${shardKey} created`,
      );
    }
    await eventually(
      () =>
        [...hosts.values()].every((h) => h.parts.slice(0, 2).every((p) => p.serving.length > 0)) &&
        watches.every((w) => {
          const last = w.stream.messages.at(-1);
          return last !== undefined && unowned(w.ns, last).length === 0;
        }),
      30_000,
      "every executor serves fixed shards, and every shard is owned",
    );
    const from = watches.map((w) => w.stream.messages.length);
    const batches: {
      batch: string[];
      waitedMs: number;
      asks: number;
      handoverMs: Promise<number>;
    }[] = [];
    for (const batch of BATCHES) {
      const asked = performance.now();
      let asks = 0;
      for (;;) {
        asks++;
        const answer = await call<unknown, CanStopExecutorsResponse__Output>(
          clients.api,
          "canStopExecutors",
          { executorIds: batch },
        );
        if (answer.allowed) break;
        assert.ok(performance.now() - asked < 60_000, `batch ${batch} waited a minute`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const waitedMs = performance.now() - asked;
      const stopping = performance.now();
      const replaced = new Set<string>();
      const handoverMs = Promise.all(batch.map(async (id) => {
        await hosts.get(id)!.shutdown();
        const done = performance.now() - stopping;
        replaced.add(id);
        hosts.set(id, new Host(clients, id)); // the new version starts at once
        return done;
      })).then((times) => Math.max(...times));
      // Before asking about the next batch, wait until the service has seen this one stop
      // (what deploy/can-stop.sh --until-leaving does): until then it counts them as serving.
      await eventually(
        async () => {
          const answer = await call<unknown, CanStopExecutorsResponse__Output>(
            clients.api,
            "canStopExecutors",
            { executorIds: batch },
          );
          return answer.namespaces.every((n) =>
            n.executors.every((e) =>
              e.leaving || !e.alive || e.status === "DRAINED" || replaced.has(e.executorId)
            )
          );
        },
        10_000,
        `batch ${batch} seen leaving`,
      );
      batches.push({ batch, waitedMs, asks, handoverMs });
    }
    const handovers = await Promise.all(batches.map((b) => b.handoverMs));
    await eventually(
      () => [...hosts.values()].every((h) => h.parts.every((p) => p.beats > 0)),
      10_000,
      "the new versions heartbeat",
    );
    const report = batches.map((b, i) =>
      `${b.batch.join(",")}: waited ${Math.round(b.waitedMs)} ms (${b.asks} asks), handover ${
        Math.round(handovers[i]!)
      } ms`
    );
    console.log([
      ...report,
      ...watches.map((w, i) => `${w.ns}: ${w.stream.messages.length - from[i]!} pictures watched`),
    ].join("\n"));
    // 3 leaving of 10 and 3 more would be 60%, over maxDrainedShare 50%: batch 2 had to wait.
    assert.ok(batches[1]!.asks > 1, `the second batch waited for the first: ${report}`);
    for (const [i, b] of batches.entries()) {
      if (i === 0) continue;
      assert.ok(
        b.waitedMs <= handovers[i - 1]! + SLACK_MS,
        `batch ${i + 1} waited longer than the previous handover needed: ${report}`,
      );
    }
    for (const [w, { ns, stream }] of watches.entries()) {
      const seen = stream.messages.slice(from[w]);
      assert.ok(seen.length > 0, `${ns}: the watch saw the deploy`);
      for (const message of seen) {
        assert.deepEqual(unowned(ns, message), [], `${ns} at revision ${message.revision}`);
      }
    }
  } finally {
    for (const w of watches) w.stream.cancel();
    for (const h of hosts.values()) await Promise.all(h.parts.map((p) => p.stop()));
    clients.close();
    await instance.stop();
  }
});
