/**
 * A replicated namespace (`replicas: 3`) against a real etcd, a real service
 * process and executors heartbeating over gRPC: every shard gets three
 * distinct owners in three zones, heartbeat answers tell every owner,
 * GetShardOwner / InspectShard / the spectator show all owners, a restart
 * of the service keeps the sets (even one that keeps it down for longer than
 * the heartbeat TTL), and an executor that dies is replaced only
 * in the sets it was in.
 */
import assert from "node:assert/strict";
import { createSpectator } from "../src/client/spectator/mod.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors, type SimExecutor } from "./support/executors.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { freePort } from "./support/ports.ts";
import { json, smctl } from "./support/smctl.ts";
import { type ServiceProcess, startProcess, testConfigYaml } from "./support/service.ts";
import type {
  GetShardOwnerResponse__Output,
  InspectShardResponse__Output,
} from "../src/wire/proto.ts";

const NS = "replicated";
const SHARDS = 12;
const KEYS = Array.from({ length: SHARDS }, (_, i) => String(i));
const ZONES: Record<string, string> = {
  "e-1": "z1",
  "e-2": "z1",
  "e-3": "z2",
  "e-4": "z2",
  "e-5": "z3",
  "e-6": "z3",
};

Deno.test("replicas: three owners per shard over three zones, a restart, an executor loss", async (t) => {
  await using etcd = await startEtcd();
  const port = freePort();
  const address = `127.0.0.1:${port}`;
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("replicas-balanced"),
    namespaces: [{ name: NS, type: "fixed", shardNum: SHARDS, replicas: 3 }],
  }).replace("grpcAddress: 127.0.0.1:0", `grpcAddress: ${address}`);
  let service: ServiceProcess = await startProcess(yaml, "sm-1");
  const clients = connect(address);
  const executors = new Map<string, SimExecutor>();
  for (
    const e of runExecutors(clients, NS, Object.keys(ZONES), {
      intervalMs: 200,
      metadata: (id) => ({ address: `${id}.example:1234`, zone: ZONES[id]! }),
    })
  ) executors.set(e.id, e);
  const ownerSets = async () => {
    const sets = new Map<string, string[]>();
    for (const shardKey of KEYS) {
      const answer = await call<unknown, GetShardOwnerResponse__Output>(
        clients.api,
        "getShardOwner",
        { namespace: NS, shardKey },
      );
      assert.equal(answer.owners[0]?.executorId, answer.owner, "the primary comes first");
      sets.set(shardKey, answer.owners.map((o) => o.executorId));
    }
    return sets;
  };
  const tryOwnerSets = () => ownerSets().catch(() => new Map<string, string[]>());
  const spread = (set: readonly string[]) =>
    set.length === 3 && new Set(set).size === 3 && new Set(set.map((id) => ZONES[id])).size === 3;
  const heldBy = (sets: Map<string, string[]>, id: string) =>
    KEYS.filter((k) => sets.get(k)?.includes(id)).sort();
  const answersMatch = (sets: Map<string, string[]>, alive: readonly SimExecutor[]) =>
    alive.every((e) => JSON.stringify([...e.shards].sort()) === JSON.stringify(heldBy(sets, e.id)));

  try {
    let before = new Map<string, string[]>();
    await t.step("every shard gets 3 distinct owners in 3 zones; each owner is told", async () => {
      await eventually(
        async () => {
          before = await tryOwnerSets();
          const counts = Object.keys(ZONES).map((id) => heldBy(before, id).length);
          return [...before.values()].every(spread) && counts.every((n) => n === 6) &&
            answersMatch(before, [...executors.values()]);
        },
        30_000,
        "three spread owners per shard, six replicas per executor",
      );
    });

    await t.step("GetShardOwner, InspectShard and the spectator show all owners", async () => {
      const answer = await call<unknown, GetShardOwnerResponse__Output>(
        clients.api,
        "getShardOwner",
        { namespace: NS, shardKey: "0" },
      );
      assert.deepEqual(answer.owners.map((o) => o.executorId), before.get("0"));
      for (const o of answer.owners) {
        assert.equal(o.metadata.zone, ZONES[o.executorId]);
        assert.equal(o.metadata.address, `${o.executorId}.example:1234`);
      }
      const inspected = await call<unknown, InspectShardResponse__Output>(
        clients.api,
        "inspectShard",
        { namespace: NS, shardKey: "0" },
      );
      assert.deepEqual(inspected.owners.map((o) => o.executorId), before.get("0"));
      assert.equal(inspected.owner, before.get("0")![0]);
      const cli = await smctl(["--address", address, "-n", NS, "shard", "inspect", "0", "--json"]);
      assert.equal(cli.code, 0, cli.stderr);
      assert.deepEqual(json<{ owners: string[] }>(cli).owners, before.get("0"));

      await using spectator = createSpectator({ addresses: [address], namespace: NS });
      await spectator.waitReady({ timeoutMs: 10_000 });
      for (const key of KEYS) {
        assert.deepEqual(spectator.ownersOf(key).map((o) => o.executorId), before.get(key));
        assert.equal(spectator.ownerOf(key)?.executorId, before.get(key)![0]);
      }
      const tried: string[] = [];
      const served = await spectator.tryOwners("0", (owner) => {
        tried.push(owner.executorId);
        if (tried.length < 3) return Promise.reject(new Error(`${owner.executorId} is down`));
        return Promise.resolve(owner.executorId);
      });
      assert.deepEqual(tried, before.get("0"));
      assert.equal(served, before.get("0")![2]);
    });

    await t.step("a restart that keeps the service down for 3 TTLs keeps the sets", async () => {
      await service.kill();
      // These clients back off as gRPC does by default (1 s, then 1.6 times
      // longer each try): down for 6 s, they try again seconds after the
      // service listens, well past the 2 s TTL after it loaded its executors.
      // It must wait for them (executor_view.ts), not move every shard.
      await new Promise((r) => setTimeout(r, 6_000));
      service = await startProcess(yaml, "sm-2");
      let restarted = new Map<string, string[]>();
      await eventually(
        async () => {
          try {
            restarted = await ownerSets();
            return true;
          } catch {
            return false;
          }
        },
        15_000,
        "the restarted service answers",
      );
      assert.deepEqual(restarted, before);
      // Nothing must change: two rebalance periods (500 ms) for a wrong move to show.
      await new Promise((r) => setTimeout(r, 1_000));
      assert.deepEqual(await ownerSets(), before, "and its passes keep them");
    });

    let after = new Map<string, string[]>();
    await t.step("a dead executor is replaced in its sets only, by its zone-mate", async () => {
      await using spectator = createSpectator({ addresses: [address], namespace: NS });
      await spectator.waitReady({ timeoutMs: 10_000 });
      const victim = executors.get("e-1")!;
      victim.stop();
      await eventually(
        async () => {
          after = await tryOwnerSets();
          return after.size === SHARDS &&
            [...after.values()].every((set) => spread(set) && !set.includes("e-1"));
        },
        15_000,
        "sets refilled without e-1",
      );
      for (const key of KEYS) {
        const was = before.get(key)!;
        const now = after.get(key)!;
        if (!was.includes("e-1")) assert.deepEqual(now, was, `shard ${key} did not lose an owner`);
        else {
          assert.deepEqual(now.filter((id) => id !== "e-2"), was.filter((id) => id !== "e-1"));
          assert.ok(now.includes("e-2"), `shard ${key} gets e-1's zone-mate`);
        }
      }
      const alive = [...executors.values()].filter((e) => e.id !== "e-1");
      await eventually(() => answersMatch(after, alive), 5_000, "heartbeat answers follow");
      // The watch stream's deltas carry the new sets to the spectator.
      await eventually(
        () =>
          KEYS.every((k) =>
            spectator.ownersOf(k).length === 3 &&
            !spectator.ownersOf(k).some((o) => o.executorId === "e-1")
          ),
        5_000,
        "the spectator sees the refilled sets",
      );
      for (const key of KEYS) {
        assert.deepEqual(spectator.ownersOf(key).map((o) => o.executorId), after.get(key));
      }
    });
  } finally {
    await Promise.all([...executors.values()].map((e) => e.stop())); // no heartbeat in flight at close
    clients.close();
    await service.kill();
  }
});
