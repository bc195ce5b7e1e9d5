/**
 * Splitting, merging and pinning a key-range namespace's slices by hand, as an
 * operator does with smctl, against a real etcd and two service instances
 * (so that a call to the instance that does not lead is forwarded): a split
 * at a key keeps the owner of every key, a merge joins neighbours, pins keep
 * the planner away and survive a change of leader, and bad requests are
 * refused with the reason.
 */
import assert from "node:assert/strict";
import { keyHash } from "../src/shared/key_hash.ts";
import { pointHex } from "../src/shared/point_hex.ts";
import type {
  GetShardOwnerResponse__Output,
  ListLeadersResponse__Output,
} from "../src/wire/proto.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { json, smctl } from "./support/smctl.ts";

const NS = "keys";

interface Listed {
  slices: { key: string; first: string; last: string; owners: string[]; pinned: boolean }[];
}
interface Changed {
  dryRun: boolean;
  slices: { slice: string; first: string; last: string; owners: string[]; pinned: boolean }[];
}

Deno.test("range namespace: split, merge, pin and unpin by hand; pins outlive the leader", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("range slice edits"),
    namespaces: [
      {
        name: NS,
        type: "range",
        range: {
          initialSlices: 8,
          slicesPerExecutor: { target: 4, min: 1, max: 32 },
          churnBudget: 0, // no balancing moves: every owner change below is the operator's
        },
      },
      { name: "fixed", type: "fixed", shardNum: 2 },
    ],
  });
  const first = await startInProcess(yaml, "edits-1");
  const second = await startInProcess(yaml, "edits-2");
  const instances = [first, second];
  const clients = instances.map((i) => connect(i.server.address));
  const executors = runExecutors(clients[0]!, NS, ["e-1", "e-2"], { intervalMs: 150 });
  const run = (instance: number, ...args: string[]) =>
    smctl(["--address", instances[instance]!.server.address, "-n", NS, ...args]);
  const list = async (instance: number) =>
    json<Listed>(await run(instance, "slice", "list", "-o", "json")).slices;
  try {
    // The planner's own layout first (it may split to reach slicesPerExecutor), then quiet.
    let seen = "";
    let steady = 0;
    await eventually(
      async () => {
        const now = JSON.stringify((await list(0)).map((s) => [s.key, s.first, s.owners]));
        steady = now === seen && now !== "[]" && !now.includes("[]") ? steady + 1 : 0;
        seen = now;
        await new Promise((resolve) => setTimeout(resolve, 300));
        return steady >= 3;
      },
      20_000,
      () => `a steady layout, every slice owned (last: ${seen})`,
    );
    const leaders = await call<unknown, ListLeadersResponse__Output>(
      clients[0]!.api,
      "listLeaders",
      {},
    );
    const leaderId = leaders.leaders.find((l) => l.namespace === NS)!.instanceId;
    const follower = leaderId === "edits-1" ? 1 : 0;
    const leader = 1 - follower;

    // Split at a key, through the instance that does not lead (forwarded): the key starts the
    // right part, and both parts keep the slice's owner.
    const key = "tenant-4711";
    const point = keyHash(key);
    const before = await list(0);
    const holder = before.find((s) =>
      BigInt(`0x${s.first}`) <= point && point <= BigInt(`0x${s.last}`)
    )!;
    const dry = json<Changed>(
      await run(follower, "slice", "split", holder.key, "--at-key", key, "--dry-run", "-o", "json"),
    );
    assert.equal(dry.dryRun, true);
    assert.equal(dry.slices.length, 2);
    assert.equal((await list(0)).length, before.length, "a dry run changes nothing");
    const split = json<Changed>(
      await run(follower, "slice", "split", holder.key, "--at-key", key, "-o", "json"),
    );
    assert.deepEqual(split.slices.map((s) => [s.first, s.owners, s.pinned]), [
      [holder.first, holder.owners, true],
      [pointHex(point), holder.owners, true],
    ]);
    assert.deepEqual(
      dry.slices.map((s) => [s.slice, s.first]),
      split.slices.map((s) => [s.slice, s.first]),
    );
    const right = split.slices[1]!.slice;
    const owner = await call<unknown, GetShardOwnerResponse__Output>(
      clients[0]!.api,
      "getShardOwner",
      {
        namespace: NS,
        shardKey: key,
      },
    );
    assert.deepEqual([owner.sliceKey, owner.owner], [right, holder.owners[0]]);

    // Pinned slices stay as the operator made them, pass after pass.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const listed = await list(1);
    assert.equal(listed.length, before.length + 1);
    assert.deepEqual(
      listed.filter((s) => s.pinned).map((s) => s.key).sort(),
      [holder.key, right].sort(),
    );
    const human = await run(0, "slice", "list");
    assert.match(human.stdout, /PINNED/);
    // The leader counted the split by hand, apart from the planner's.
    const metrics = () =>
      fetch(`http://${instances[leader]!.http.address}/metrics`).then((r) => r.text());
    await eventually(
      async () =>
        /^sm_range_changes_total\{namespace="keys",change="hand_split"\} 1$/m.test(await metrics()),
      5_000,
      'the leader\'s sm_range_changes_total{change="hand_split"} at 1',
    );

    // Refusals name the reason (exit 2), and a namespace of another kind is refused (exit 5).
    const outside = await run(0, "slice", "split", holder.key, "--at", "ffffffffffffffff");
    assert.equal(outside.code, 2, outside.stderr);
    assert.match(outside.stderr, /split_at.*not inside slice/);
    const apart = await run(0, "slice", "merge", listed[0]!.key, listed[2]!.key);
    assert.equal(apart.code, 2, apart.stderr);
    assert.match(apart.stderr, /not neighbours/);
    const unknown = await run(0, "slice", "pin", "999");
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /no slice 999/);
    const fixed = await smctl([
      "--address",
      first.server.address,
      "-n",
      "fixed",
      "slice",
      "pin",
      "0",
    ]);
    assert.equal(fixed.code, 5, fixed.stderr);
    assert.match(fixed.stderr, /not a key-range namespace/);

    // Merge the two parts again (either order); pinned (the default), it stays as made.
    const merged = json<Changed>(
      await run(leader, "slice", "merge", right, holder.key, "-o", "json"),
    );
    assert.deepEqual(merged.slices.map((s) => [s.slice, s.first, s.last, s.owners, s.pinned]), [
      [holder.key, holder.first, holder.last, holder.owners, true],
    ]);
    const unpinned = json<Changed>(await run(follower, "slice", "unpin", holder.key, "-o", "json"));
    assert.deepEqual(unpinned.slices.map((s) => [s.slice, s.pinned]), [[holder.key, false]]);

    // A pin is in the store: the next leader keeps it.
    const pin = json<Changed>(await run(follower, "slice", "pin", holder.key, "-o", "json"));
    assert.deepEqual(pin.slices.map((s) => [s.slice, s.pinned]), [[holder.key, true]]);
    await instances[leader]!.stop();
    executors.forEach((e) => void e.stop());
    const survivors = runExecutors(clients[follower]!, NS, ["e-1", "e-2"], { intervalMs: 150 });
    try {
      await eventually(
        async () => {
          const l = await call<unknown, ListLeadersResponse__Output>(
            clients[follower]!.api,
            "listLeaders",
            {},
          );
          return l.leaders.find((x) => x.namespace === NS)?.instanceId ===
            (follower === 0 ? "edits-1" : "edits-2");
        },
        20_000,
        "the other instance leads",
      );
      const after = await list(follower);
      assert.deepEqual(after.filter((s) => s.pinned).map((s) => s.key), [holder.key]);
      const unpin = json<Changed>(await run(follower, "slice", "unpin", holder.key, "-o", "json"));
      assert.deepEqual(unpin.slices.map((s) => [s.slice, s.pinned]), [[holder.key, false]]);
    } finally {
      await Promise.all(survivors.map((e) => e.stop()));
    }
  } finally {
    await Promise.all(executors.map((e) => e.stop()));
    for (const c of clients) c.close();
    await Promise.all(instances.map((i) => i.stop().catch(() => {})));
  }
});
