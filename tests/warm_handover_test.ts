/**
 * Warm handover against real etcd and gRPC (issue 40): a planned move is
 * prepared by its incoming owner while the old one serves, then switched in
 * one commit with the token the prepare announced; the routing view names the
 * serving owner until then. Also each rule: cancel at the prepare timeout,
 * cold completion of a move the old owner must make, the old owner lost, the
 * incoming owner lost, an executor without `warm_handover`, a leader
 * failover mid-handover, and an exclusive namespace, which never serves twice.
 */
import assert from "node:assert/strict";
import type {
  GetShardOwnerResponse__Output,
  InspectShardResponse__Output,
} from "../src/wire/proto.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, type Clients, connect } from "./support/grpc_clients.ts";
import { eventually } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { withService } from "./support/with_service.ts";
import { runWarmExecutor, type WarmExecutor } from "./support/warm_executors.ts";

/** A namespace that balances at once (no settling window, cooldown or hysteresis). */
function namespace(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    type: "fixed",
    shardNum: 4,
    settleWindow: "0s",
    shardCooldown: "0s",
    minImprovement: 0,
    prepareTimeout: "1500ms",
    ...extra,
  };
}

async function ownerOf(clients: Clients, ns: string, shardKey: string): Promise<string> {
  const res = await call<unknown, GetShardOwnerResponse__Output>(clients.api, "getShardOwner", {
    namespace: ns,
    shardKey,
  });
  return res.owner;
}

/** Starts executor `id` in `executors` and waits until it serves `shards` shards. */
async function servingAll(
  clients: Clients,
  ns: string,
  executors: WarmExecutor[],
  id: string,
  shards: number,
): Promise<WarmExecutor> {
  const e = runWarmExecutor(clients, ns, id);
  executors.push(e);
  await eventually(() => e.serving.length === shards, 8_000, `${id} serves all`);
  return e;
}

/** Starts executor `id` in `executors` (never finishing a prepare) and waits until it is asked to prepare. */
async function preparing(
  clients: Clients,
  ns: string,
  executors: WarmExecutor[],
  id: string,
): Promise<WarmExecutor> {
  const e = runWarmExecutor(clients, ns, id, { prepareMs: Infinity });
  executors.push(e);
  await eventually(() => e.history.some((h) => h.status === "PREPARING"), 8_000, `${id} prepares`);
  return e;
}

const stopAll = (executors: WarmExecutor[]) => Promise.all(executors.map((e) => e.stop()));

Deno.test("warm handover: prepared while the old owner serves, then switched with the announced token", async () => {
  await withService("warm", [namespace("ns"), namespace("cold")], async (clients, instance) => {
    const executors: WarmExecutor[] = [];
    try {
      const a = await servingAll(clients, "ns", executors, "a", 4);
      const b = runWarmExecutor(clients, "ns", "b", { prepareMs: 600 });
      executors.push(b);
      await eventually(() => [...b.told.values()].some((t) => t.status === "PREPARING"), 5_000);
      const [shard, told] = [...b.told].find(([, t]) => t.status === "PREPARING")!;
      // While b prepares, a serves the shard and routing names a.
      assert.ok(a.serving.includes(shard));
      assert.equal(await ownerOf(clients, "ns", shard), "a");
      const inspected = await call<unknown, InspectShardResponse__Output>(
        clients.api,
        "inspectShard",
        { namespace: "ns", shardKey: shard },
      );
      assert.equal(inspected.owner, "a");
      assert.equal(inspected.incomingOwner, "b", "inspection shows the handover in flight");
      assert.ok(inspected.preparingSince !== null);
      await eventually(() => a.serving.length === 2 && b.serving.length === 2, 5_000, "2 each");
      const ready = b.history.find((h) => h.shard === shard && h.status === "READY")!;
      assert.equal(ready.token, told.token, "the switch keeps the token the prepare announced");
      assert.ok(BigInt(ready.token) > BigInt(a.history.find((h) => h.shard === shard)!.token));
      assert.equal(await ownerOf(clients, "ns", shard), "b");
      // Every shard b got, it prepared first.
      for (const s of b.serving) {
        assert.equal(b.history.find((h) => h.shard === s)?.status, "PREPARING", `shard ${s}`);
      }
      // The leader counts a pass once its commit is applied: the answers may come first.
      const scrape = async () =>
        await (await fetch(`http://${instance.http.address}/metrics`)).text();
      // Every move b took was prepared and switched warm (balancing may make more than two).
      const figure = (re: RegExp) => Number(re.exec(metrics)?.[1] ?? NaN);
      let metrics = "";
      await eventually(
        async () => {
          metrics = await scrape();
          const prepared = figure(
            /sm_handovers_total\{namespace="ns",outcome="prepared"\} (\d+)\n/,
          );
          const warm = figure(/sm_handovers_total\{namespace="ns",outcome="warm"\} (\d+)\n/);
          const timed = figure(/sm_handover_prepare_seconds_count\{namespace="ns"\} (\d+)\n/);
          return prepared >= 2 && warm === prepared && timed === prepared;
        },
        5_000,
        () =>
          `handover metrics in\n${
            metrics.split("\n").filter((l) =>
              l.includes("handover") || l.includes("shard_moves_total{") ||
              l.includes("passes_total{")
            ).join("\n")
          }`,
      );

      const history = await call<unknown, { events: { type: string; text: string }[] }>(
        clients.api,
        "listNamespaceEvents",
        { namespace: "ns" },
      );
      const texts = history.events.filter((e) => e.type === "assignment_changed").map((e) =>
        e.text
      );
      assert.ok(texts.some((t) => /warm handovers: .*prepared/.test(t)), texts.join("\n"));
      assert.ok(texts.some((t) => /warm handovers: .*warm/.test(t)), texts.join("\n"));

      // An executor without warm_handover is moved as before: never asked to prepare.
      const x = runWarmExecutor(clients, "cold", "x", { warm: false });
      executors.push(x);
      await eventually(() => x.serving.length === 4, 5_000, "x serves all");
      const y = runWarmExecutor(clients, "cold", "y", { warm: false });
      executors.push(y);
      await eventually(() => x.serving.length === 2 && y.serving.length === 2, 5_000, "2 each");
      assert.ok(y.history.every((h) => h.status === "READY"), JSON.stringify(y.history));
    } finally {
      await stopAll(executors);
    }
  });
});

Deno.test("warm handover: a balancing move not prepared in time is cancelled; a drain's completes cold", async () => {
  await withService("warm", [namespace("ns", { shardNum: 2 })], async (clients) => {
    const executors: WarmExecutor[] = [];
    try {
      const a = await servingAll(clients, "ns", executors, "a", 2);
      const b = await preparing(clients, "ns", executors, "b");
      const started = b.history.find((h) => h.status === "PREPARING")!;
      // Cancelled at the timeout: b is told no more of it, and a never stopped serving it.
      await eventually(() => !b.told.has(started.shard), 5_000, "the prepare is cancelled");
      assert.ok(Date.now() - started.atMs >= 1_400, "not before the timeout");
      assert.equal(a.serving.length, 2);
      assert.equal(b.serving.length, 0);
      // a shuts down (DRAINING): its shards must move, so they complete cold after the timeout.
      a.status = "EXECUTOR_STATUS_DRAINING";
      await eventually(
        () => b.serving.length === 2 && a.serving.length === 0,
        6_000,
        "b takes both, unprepared",
      );
    } finally {
      await stopAll(executors);
    }
  });
});

Deno.test("warm handover: the incoming owner takes the shard at once when the old one is lost, and a lost incoming owner cancels", async () => {
  await withService(
    "warm",
    [namespace("ns", { shardNum: 2, prepareTimeout: "30s" })],
    async (clients) => {
      const executors: WarmExecutor[] = [];
      try {
        const a = await servingAll(clients, "ns", executors, "a", 2);
        const b = await preparing(clients, "ns", executors, "b");
        // b is lost while it prepares: the move is cancelled long before the 30 s timeout.
        await b.stop();
        const c = await preparing(clients, "ns", executors, "c");
        assert.equal(a.serving.length, 2, "a serves throughout");
        // a is lost while c prepares: c takes its shards at once (not after 30 s).
        await a.stop();
        await eventually(() => c.serving.length === 2, 8_000, "c takes over");
      } finally {
        await stopAll(executors);
      }
    },
  );
});

Deno.test("warm handover, exclusive: the prepared owner starts only after the old one confirmed it stopped", async () => {
  const ns = namespace("jobs", { shardNum: 2, ownership: "exclusive" });
  await withService("warm", [ns], async (clients) => {
    const executors: WarmExecutor[] = [];
    try {
      const a = await servingAll(clients, "jobs", executors, "a", 2);
      const b = runWarmExecutor(clients, "jobs", "b", { prepareMs: 300 });
      executors.push(b);
      await eventually(() => a.serving.length === 1 && b.serving.length === 1, 8_000, "1 each");
      const shard = b.serving[0]!;
      const prepared = b.history.find((h) => h.shard === shard && h.status === "PREPARING")!;
      const released = a.history.find((h) => h.shard === shard && h.status === "RELEASING")!;
      const ready = b.history.find((h) => h.shard === shard && h.status === "READY")!;
      assert.ok(prepared.atMs <= released.atMs, "prepared first, released second");
      assert.ok(released.atMs <= ready.atMs, "then b is told READY");
      assert.equal(ready.token, prepared.token);
    } finally {
      await stopAll(executors);
    }
  });
});

Deno.test("warm handover: a new leader continues a handover in flight from the store", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("warm-failover"),
    namespaces: [namespace("ns", { shardNum: 2, prepareTimeout: "30s" })],
  });
  const instances = [
    await startInProcess(yaml, "instance-1"),
    await startInProcess(yaml, "instance-2"),
  ];
  const probe = connect(instances[0]!.server.address);
  let leaderId = "";
  await eventually(
    async () => {
      const res = await call<unknown, { leaders: { namespace: string; instanceId: string }[] }>(
        probe.api,
        "listLeaders",
        {},
      );
      leaderId = res.leaders.find((l) => l.namespace === "ns")?.instanceId ?? "";
      return leaderId !== "";
    },
    10_000,
    "a leader",
  );
  probe.close();
  const leader = instances[leaderId === "instance-1" ? 0 : 1]!;
  const survivor = instances[leaderId === "instance-1" ? 1 : 0]!;
  // The executors talk to the instance that survives.
  const clients = connect(survivor.server.address);
  const executors: WarmExecutor[] = [];
  try {
    const a = await servingAll(clients, "ns", executors, "a", 2);
    const b = runWarmExecutor(clients, "ns", "b", { prepareMs: 2_500 });
    executors.push(b);
    await eventually(() => b.history.some((h) => h.status === "PREPARING"), 8_000, "prepare");
    const { shard, token } = b.history.find((h) => h.status === "PREPARING")!;
    // The leader goes away mid-handover; the survivor takes over the namespace and finishes it.
    await leader.stop();
    await eventually(() => b.serving.includes(shard), 15_000, "the switch after the failover");
    assert.equal(b.history.find((h) => h.shard === shard && h.status === "READY")?.token, token);
    await eventually(() => a.serving.length === 1, 5_000, "a serves the other shard");
  } finally {
    await stopAll(executors);
    clients.close();
    await survivor.stop();
    await leader.stop().catch(() => {});
  }
});
