// deno-lint-ignore-file no-console -- the measured gaps are printed for whoever runs the test
/**
 * A correctness bound, not a benchmark: an executor is never declared stale
 * before `heartbeatTTL` has passed since the last heartbeat the service
 * answered, on either store. Over repeated runs a victim that heartbeats fast
 * (so most of its heartbeats change nothing) falls silent at a random moment;
 * the gap from its last answered heartbeat to the commit that gave its shards
 * away must be at least the TTL.
 *
 * Measured conservatively: the last answer is timed when the client received
 * it (never before the service sent it), and the reassignment by the commit
 * time the leader records with the change (`InspectShard.assigned_at`, taken
 * right after the pass decided).
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, type Clients, connect, heartbeat } from "./support/grpc_clients.ts";
import { eventually } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type { InspectShardResponse__Output } from "../src/wire/proto.ts";

const TTL_MS = 2_000;
const RUNS = Number(Deno.env.get("LIVENESS_RUNS") ?? 4);
const SHARDS = 4;
const NAMESPACE = { name: "ns", type: "fixed", shardNum: SHARDS };
const PROCESS = { heartbeatTTL: "2s", period: "100ms", rebalanceCooldown: "10ms" };

/** An executor heartbeating every ~`intervalMs`; remembers when its last answer arrived. */
function beating(clients: Clients, id: string, intervalMs: number) {
  let stopped = false, shards: string[] = [], lastAnswerMs = 0;
  const loop = (async () => {
    while (!stopped) {
      try {
        const reports = Object.fromEntries(
          shards.map((s) => [s, { status: "SHARD_STATUS_READY" as const, shardLoad: 1 }]),
        );
        const res = await heartbeat(clients, {
          namespace: "ns",
          executorId: id,
          status: "EXECUTOR_STATUS_ACTIVE",
          shardStatusReports: reports,
        });
        if (stopped) break; // an answer after the stop counts: it was answered
        shards = Object.keys(res.shardAssignments);
        lastAnswerMs = Date.now();
      } catch { /* retried */ }
      await new Promise((r) => setTimeout(r, intervalMs * (0.5 + Math.random())));
    }
  })();
  return {
    shards: () => shards,
    lastAnswerMs: () => lastAnswerMs,
    /** Stops, and waits for a heartbeat in flight: its answer then counts as the last. */
    async stop(): Promise<number> {
      stopped = true;
      await loop;
      return lastAnswerMs;
    },
  };
}

async function measure(clients: Clients, run: number): Promise<number> {
  const victim = beating(clients, `victim-${run}`, 60);
  const survivor = beating(clients, `survivor-${run}`, 60);
  try {
    await eventually(
      () =>
        victim.shards().length > 0 && victim.shards().length + survivor.shards().length === SHARDS,
      15_000,
      "both placed",
    );
    // Fall silent at a random phase of the heartbeat and refresh cycles.
    await new Promise((r) => setTimeout(r, 200 + Math.random() * 700));
    const lost = victim.shards();
    // The final answer may come after the stop; wait for it (see stop()).
    let last = victim.lastAnswerMs();
    last = await victim.stop() || last;
    await eventually(
      () => lost.every((s) => survivor.shards().includes(s)),
      TTL_MS + 10_000,
      "the victim's shards to move",
    );
    let moved = Infinity;
    for (const shardKey of lost) {
      const inspected = await call<unknown, InspectShardResponse__Output>(
        clients.api,
        "inspectShard",
        { namespace: "ns", shardKey },
      );
      const at = inspected.assignedAt;
      assert.ok(at, `shard ${shardKey} has an assignment time`);
      moved = Math.min(moved, Number(at.seconds) * 1000 + at.nanos / 1e6);
    }
    return moved - last;
  } finally {
    await victim.stop();
    await survivor.stop();
  }
}

async function runs(address: string, store: string): Promise<void> {
  const clients = connect(address);
  const gaps: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) gaps.push(await measure(clients, run));
  } finally {
    clients.close();
  }
  console.log(`${store}: last answered heartbeat → shards reassigned, ms:`, gaps.map(Math.round));
  for (const gap of gaps) {
    assert.ok(gap >= TTL_MS, `${store}: shards moved ${Math.round(gap)} ms after the last answer`);
  }
}

Deno.test("etcd store: an executor is never declared stale before heartbeatTTL since its last answered heartbeat", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("liveness-bound"),
    namespaces: [NAMESPACE],
    process: PROCESS,
  }));
  try {
    await runs(instance.server.address, "etcd");
  } finally {
    await instance.stop();
  }
});

Deno.test("embedded store: an executor is never declared stale before heartbeatTTL since its last answered heartbeat", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sm-liveness-" });
  const instance = await startInProcess(`shardDistribution:
  namespaces:
    - ${JSON.stringify(NAMESPACE)}
  embedded:
    dataDir: ${JSON.stringify(dataDir)}
  election:
    maxRandomDelay: 100ms
  process: ${JSON.stringify(PROCESS)}
server:
  grpcAddress: 127.0.0.1:0
  httpAddress: 127.0.0.1:0
log:
  level: warn
`);
  try {
    await runs(instance.server.address, "embedded");
  } finally {
    await instance.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
