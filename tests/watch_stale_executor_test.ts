/**
 * A stale executor leaves the spectators' routing view once it holds nothing
 * (snapshot and delta subscribers alike), while GetNamespaceState, the
 * operator's view, keeps listing it as stale until retention ends; heard from
 * again, it is back in both. Real gRPC, real etcd.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect, heartbeat, watch } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type {
  GetNamespaceStateResponse__Output,
  WatchNamespaceStateResponse__Output,
} from "../src/wire/proto.ts";

type Message = WatchNamespaceStateResponse__Output;

/** The executor ids a delta subscriber holds after applying `messages` in order. */
function fromDeltas(messages: readonly Message[]): Set<string> {
  let ids = new Set<string>();
  for (const m of messages) {
    if (!m.isDelta) ids = new Set(m.executors.map((e) => e.executorId));
    else {
      for (const e of m.executors) ids.add(e.executorId);
      for (const id of m.removedExecutors) ids.delete(id);
    }
  }
  return ids;
}

const lastSnapshot = (messages: readonly Message[]) =>
  new Set(messages.at(-1)?.executors.map((e) => e.executorId) ?? []);

Deno.test("a stale executor that holds nothing leaves WatchNamespaceState but stays in GetNamespaceState", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("watch-stale"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 6 }],
    process: { heartbeatTTL: "2s", period: "200ms" },
  }));
  const clients = connect(instance.server.address);
  const [a, b] = runExecutors(clients, "ns", ["a", "b"], { intervalMs: 200 });
  const snapshots = watch(clients, "ns");
  const deltas = watch(clients, "ns", { acceptDeltas: true });
  try {
    await eventually(() => a!.shards.length === 3 && b!.shards.length === 3, 10_000, "a split");
    await eventually(() => fromDeltas(deltas.messages).has("b"), 5_000, "b watched");
    b!.stop();
    await eventually(() => a!.shards.length === 6, 10_000, "a owns all");
    await eventually(
      () => !lastSnapshot(snapshots.messages).has("b") && !fromDeltas(deltas.messages).has("b"),
      5_000,
      "b out of both watch streams",
    );
    assert.deepEqual([...lastSnapshot(snapshots.messages)], ["a"]);
    assert.deepEqual([...fromDeltas(deltas.messages)], ["a"]);
    const state = await call<unknown, GetNamespaceStateResponse__Output>(
      clients.api,
      "getNamespaceState",
      { namespace: "ns" },
    );
    const listed = state.executors.find((e) => e.executorId === "b");
    assert.ok(listed, "the operator's view still lists b");
    assert.equal(listed.alive, false);
    assert.equal(listed.assignedShards.length, 0);

    // Heard from again, b is back for spectators too.
    await heartbeat(clients, {
      namespace: "ns",
      executorId: "b",
      status: "EXECUTOR_STATUS_ACTIVE",
    });
    await eventually(
      () => lastSnapshot(snapshots.messages).has("b") && fromDeltas(deltas.messages).has("b"),
      5_000,
      "b back in both watch streams",
    );
  } finally {
    a!.stop();
    b!.stop();
    snapshots.cancel();
    deltas.cancel();
    clients.close();
    await instance.stop();
  }
});
