// deno-lint-ignore-file no-console -- the measured figure is printed for whoever runs the test
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { type ServiceProcess, startProcess, testConfigYaml } from "./support/service.ts";
import type { GetShardOwnerResponse__Output } from "../src/wire/proto.ts";

const leads = (p: ServiceProcess) => /"msg":"leading namespace","namespace":"eph"/.test(p.logs());

/** Two instance processes on one etcd, with an ephemeral namespace "eph", sorted into leader and follower. */
async function twoInstances(endpoints: string[], name: string, electionTTL: string) {
  const yaml = testConfigYaml({
    endpoints,
    prefix: uniquePrefix(name),
    namespaces: [{ name: "eph", type: "ephemeral" }],
    electionTTL,
  });
  const first = await startProcess(yaml, "instance-1");
  const second = await startProcess(yaml, "instance-2").catch(async (error) => {
    await first.kill("SIGKILL");
    throw error;
  });
  const both = {
    async [Symbol.asyncDispose]() {
      await Promise.all([first.kill("SIGKILL"), second.kill("SIGKILL")]);
    },
  };
  try {
    await eventually(() => leads(first) || leads(second), 10_000, "a leader");
  } catch (error) {
    await both[Symbol.asyncDispose]();
    throw error;
  }
  const [leader, follower] = leads(first) ? [first, second] : [second, first];
  return { leader, follower, ...both };
}

Deno.test("two instances: one owner per new ephemeral key, and SIGKILL of the leader hands rebalancing over", async () => {
  await using etcd = await startEtcd();
  const electionTtlMs = 2_000;
  await using instances = await twoInstances(etcd.endpoints, "failover", "2s");
  const { leader, follower } = instances;
  const toLeader = connect(leader.address);
  const toFollower = connect(follower.address);
  const executors = runExecutors(toFollower, "eph", ["a", "b", "c"], { intervalMs: 200 });
  try {
    await eventually(() => executors.every((e) => e.beats > 1), 5_000, "executors registered");

    // The same new keys asked of both instances at once get one owner each.
    const keys = Array.from({ length: 20 }, (_, i) => `tenant-${i}`);
    const ask = (clients: typeof toLeader, key: string) =>
      call<unknown, GetShardOwnerResponse__Output>(clients.api, "getShardOwner", {
        namespace: "eph",
        shardKey: key,
      });
    const answers = await Promise.all(
      keys.flatMap((key) => [ask(toLeader, key), ask(toFollower, key), ask(toFollower, key)]),
    );
    for (let i = 0; i < keys.length; i++) {
      const owners = new Set(answers.slice(i * 3, i * 3 + 3).map((a) => a.owner));
      assert.equal(owners.size, 1, `${keys[i]} got owners ${[...owners]}`);
    }
    await eventually(
      () => executors.flatMap((e) => e.shards).length === keys.length,
      5_000,
      "executors to hold the keys",
    );
    const held = executors.flatMap((e) => e.shards);
    assert.equal(new Set(held).size, held.length, "no key is held twice");

    // Kill the leader without a chance to resign.
    const killedAt = performance.now();
    await leader.kill("SIGKILL");
    await eventually(
      () => leads(follower),
      electionTtlMs + 5_000,
      "the follower to lead",
    );
    const sinceKill = performance.now() - killedAt;
    assert.ok(sinceKill <= electionTtlMs + 3_000, `handover took ${Math.round(sinceKill)} ms`);
    console.log(`leader killed with SIGKILL; the follower led ${Math.round(sinceKill)} ms later`);

    // The new leader rebalances: a new key gets an owner, and a dead executor's keys move.
    const fresh = await ask(toFollower, "tenant-after-failover");
    assert.ok(["a", "b", "c"].includes(fresh.owner));
    const victim = executors.find((e) => e.shards.length > 0)!;
    const moved = new Set(victim.shards);
    victim.stop();
    await eventually(
      () => {
        const others = executors.filter((e) => e !== victim).flatMap((e) => e.shards);
        return [...moved].every((k) => others.includes(k));
      },
      10_000,
      "the dead executor's keys to move",
    );
  } finally {
    for (const e of executors) e.stop();
    toLeader.close();
    toFollower.close();
  }
});

Deno.test("SIGTERM makes the leader resign at once, long before its lease would expire", async () => {
  await using etcd = await startEtcd();
  await using instances = await twoInstances(etcd.endpoints, "sigterm", "10s");
  const { leader, follower } = instances;
  const stoppedAt = performance.now();
  const status = await leader.kill("SIGTERM");
  assert.equal(status.code, 0, "a clean exit");
  assert.match(leader.logs(), /"msg":"resigned leadership"/);
  await eventually(() => leads(follower), 5_000, "the follower to lead");
  const sinceStop = performance.now() - stoppedAt;
  assert.ok(sinceStop < 5_000, `handover took ${Math.round(sinceStop)} ms with a 10 s lease`);
  console.log(`leader stopped with SIGTERM; the follower led ${Math.round(sinceStop)} ms later`);
});
