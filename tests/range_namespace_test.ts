/**
 * A key-range namespace (`type: range`) against a real etcd and a real
 * service instance, with executors heartbeating over gRPC as Cadence's own
 * clients would: `GetShardOwner` takes any application key and answers the
 * owner of the slice it hashes into (with the slice's id and range); a hot
 * slice is split without moving its keys; a hot key gets a single-key slice
 * with several owners; cold slices merge again; and the watch stream's
 * slice map always covers the line with every slice owned.
 */
import assert from "node:assert/strict";
import { createSpectator } from "../src/client/spectator/mod.ts";
import { keyHash } from "../src/shared/key_hash.ts";
import { pointHex } from "../src/shared/point_hex.ts";
import { decodeSliceMap } from "../src/core/slice_map_codec.ts";
import { LINE_END } from "../src/core/slices.ts";
import type {
  GetShardOwnerResponse__Output,
  HeartbeatRequest,
  WatchNamespaceStateResponse__Output,
} from "../src/wire/proto.ts";
import { startEtcd } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { call, connect, heartbeat, watch } from "./support/grpc_clients.ts";
import { RANGE_NAMESPACE as NS, startRangeInstance } from "./support/range_namespace.ts";
import { json, smctl } from "./support/smctl.ts";

const HOT = "tenant-7";

type Reports = NonNullable<HeartbeatRequest["shardStatusReports"]>;

/** An executor that heartbeats every 150 ms, reporting what `load` says for each slice it holds. */
function executor(
  clients: ReturnType<typeof connect>,
  id: string,
  load: (slice: string, range: [bigint, bigint] | undefined) => Reports[string],
) {
  const held = new Map<string, [bigint, bigint] | undefined>();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const beat = async () => {
    const reports: Reports = {};
    for (const [slice, range] of held) reports[slice] = load(slice, range);
    try {
      const answer = await heartbeat(clients, {
        namespace: NS,
        executorId: id,
        status: "EXECUTOR_STATUS_ACTIVE",
        shardStatusReports: reports,
        metadata: { zone: id },
      });
      held.clear();
      for (const [slice, a] of Object.entries(answer.shardAssignments)) {
        const r = a.keyRange;
        held.set(slice, r ? [BigInt(r.firstPoint), BigInt(r.lastPoint)] : undefined);
      }
    } catch { /* retried next beat */ }
    if (!stopped) timer = setTimeout(beat, 150);
  };
  void beat();
  return {
    held,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

Deno.test("range namespace: GetShardOwner by key, a split, a hot key with replicas, merges, the watch", async () => {
  await using etcd = await startEtcd();
  const instance = await startRangeInstance(etcd, "range namespace", {
    instanceId: "range-1",
    range: {
      splitThreshold: 0.5,
      mergeThreshold: 0.25,
      hotKeyThreshold: 0.1,
      churnBudget: 0, // no balancing moves: every owner change below is a split, merge or fill
    },
  });
  const clients = connect(instance.server.address);
  const point = keyHash(HOT);
  let phase: "even" | "hot-slice" | "hot-key" | "cold" = "even";
  const load = (_slice: string, range: [bigint, bigint] | undefined): Reports[string] => {
    const holdsHot = range !== undefined && range[0] <= point && point <= range[1];
    if (phase === "cold") {
      // All cold but the first slice, so that there is a mean load to be cold against.
      return { status: "SHARD_STATUS_READY", shardLoad: range?.[0] === 0n ? 10 : 0.01 };
    }
    if (phase === "even" || !holdsHot) return { status: "SHARD_STATUS_READY", shardLoad: 1 };
    const topKeys = phase === "hot-key" ? [{ key: HOT, load: 95 }] : [];
    return { status: "SHARD_STATUS_READY", shardLoad: 100, topKeys };
  };
  const executors = ["e-1", "e-2", "e-3"].map((id) => executor(clients, id, load));
  const stream = watch(clients, NS, { acceptDeltas: true });
  const owner = (key: string) =>
    call<unknown, GetShardOwnerResponse__Output>(clients.api, "getShardOwner", {
      namespace: NS,
      shardKey: key,
    });
  // The spectator SDK routes keys from memory all along; a miss is a key it could not route.
  await using spectator = createSpectator({ addresses: [instance.server.address], namespace: NS });
  const sample = Array.from({ length: 200 }, (_, i) => `tenant-${i}`);
  const misses: string[] = [];
  let routing = true;
  const router = (async () => {
    await spectator.waitReady({ timeoutMs: 10_000 });
    // From the first placement on (before it, the namespace has no slices to route to).
    while (routing && sample.some((key) => spectator.ownerOf(key) === undefined)) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    while (routing) {
      for (const key of sample) {
        if (spectator.ownerOf(key) === undefined) misses.push(`${key} at ${phase}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    // Placed: any key has an owner, the slice it hashes into.
    await eventually(() => executors.every((e) => e.held.size > 0), 10_000, "slices placed");
    const first = await owner(HOT);
    const range = first.keyRange!;
    assert.ok(BigInt(range.firstPoint) <= point && point <= BigInt(range.lastPoint));
    const holder = executors.find((e) => e.held.has(first.sliceKey))!;
    assert.ok(holder, `slice ${first.sliceKey} is in its owner's answer`);
    assert.equal(first.owner, ["e-1", "e-2", "e-3"][executors.indexOf(holder)]);
    for (const key of ["a", "é", "x".repeat(200)]) assert.ok((await owner(key)).owner);
    await eventually(() => spectator.ownerOf(HOT)?.executorId === first.owner, 5_000, "spectator");

    // A hot slice is split; its keys stay with their owner (no balancing moves here).
    phase = "hot-slice";
    await eventually(
      async () =>
        (await owner(HOT)).sliceKey !== first.sliceKey ||
        (await owner(HOT)).keyRange!.generation > range.generation,
      10_000,
      "hot slice split",
    );
    assert.equal((await owner(HOT)).owner, first.owner);

    // The hot key gets a slice of its own, with more owners than one.
    phase = "hot-key";
    await eventually(
      async () => {
        const r = (await owner(HOT)).keyRange!;
        return BigInt(r.firstPoint) === point && BigInt(r.lastPoint) === point;
      },
      10_000,
      "hot key isolated",
    );
    await eventually(async () => (await owner(HOT)).owners.length > 1, 10_000, "hot key replicas");

    // smctl shows the slices and the hot key.
    const address = instance.server.address;
    const listed = json<
      { slices: { key: string; first: string; owners: string[]; share: number }[] }
    >(
      await smctl(["--address", address, "-n", NS, "slice", "list", "-o", "json"]),
    );
    const shares = listed.slices.reduce((sum, s) => sum + s.share, 0);
    assert.ok(Math.abs(shares - 1) < 1e-9, `the slices cover the line: ${shares}`);
    const hotSlice = listed.slices.find((s) => s.first === pointHex(point));
    assert.ok(hotSlice && hotSlice.owners.length > 1, JSON.stringify(hotSlice));
    await eventually(
      async () => {
        const hot = json<{ keys: { key: string }[] }>(
          await smctl(["--address", address, "-n", NS, "slice", "hot", "--top", "3", "-o", "json"]),
        );
        return hot.keys[0]?.key === HOT;
      },
      5_000,
      "smctl slice hot names the hot key",
    );

    // Cold again: neighbours merge (fewer slices than at the peak).
    const peak = executors.reduce((n, e) => n + e.held.size, 0);
    phase = "cold";
    await eventually(
      () => executors.reduce((n, e) => n + e.held.size, 0) < peak,
      15_000,
      "cold slices merged",
    );

    // The watch: every slice map it carried covered the line, and every slice had an owner.
    const maps = stream.messages.filter((m) => m.sliceMap.length > 0);
    assert.ok(maps.length >= 3, `slice maps seen: ${maps.length}`);
    checkWatch(stream.messages);
    // The spectator followed every change without a miss, and agrees with the service.
    routing = false;
    await router;
    assert.deepEqual(misses.slice(0, 5), []);
    await eventually(
      async () => {
        for (const key of sample.slice(0, 20)) {
          if (spectator.ownerOf(key)?.executorId !== (await owner(key)).owner) return false;
        }
        return true;
      },
      5_000,
      "the spectator agrees with GetShardOwner",
    );

    // The leader's metrics counted the changes.
    const page = await (await fetch(`http://${instance.http.address}/metrics`)).text();
    const value = (pattern: RegExp) => Number(pattern.exec(page)?.[1] ?? 0);
    assert.ok(value(/sm_range_changes_total\{namespace="keys",change="split"\} (\S+)/) > 0, page);
    assert.ok(value(/sm_range_changes_total\{namespace="keys",change="merge"\} (\S+)/) > 0);
    assert.ok(value(/sm_range_changes_total\{namespace="keys",change="isolation"\} (\S+)/) >= 1);
    assert.ok(value(/sm_range_slices\{namespace="keys"\} (\S+)/) > 0);
  } finally {
    routing = false;
    await router.catch(() => {});
    stream.cancel();
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});

/** Replays the watch: at every message, the slice map covers the line and each slice is owned. */
function checkWatch(messages: readonly WatchNamespaceStateResponse__Output[]): void {
  const owners = new Map<string, string>();
  let slices: string[] = [];
  for (const m of messages) {
    if (!m.isDelta) {
      owners.clear();
      for (const e of m.executors) for (const s of e.shards) owners.set(s.shardKey, e.executorId);
    } else {
      for (const c of m.ownerChanges) {
        if (c.executorId) owners.set(c.shardKey, c.executorId);
        else owners.delete(c.shardKey);
      }
    }
    if (m.sliceMap.length > 0) {
      const map = decodeSliceMap(new Uint8Array(m.sliceMap));
      assert.equal(map.slices.at(-1)!.end, LINE_END);
      slices = map.slices.map((s) => String(s.id));
    }
    for (const s of slices) {
      assert.ok(owners.has(s), `slice ${s} unowned at revision ${m.revision}`);
    }
  }
}
