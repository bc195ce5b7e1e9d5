import assert from "node:assert/strict";
import { createSpectator } from "./create_spectator.ts";
import { AllOwnersFailedError } from "./errors.ts";
import { applyUpdate } from "./placement.ts";
import { applyDelta } from "./apply_delta.ts";
import { tryOwners } from "./try_owners.ts";
import type { PlacementUpdate } from "./types.ts";
import { fakeClock, FakeTransport } from "./_fake_transport.ts";

/** Shard "0" owned by b (primary), then c, then a; shard "1" by a alone. */
const REPLICATED: PlacementUpdate = {
  kind: "snapshot",
  executors: [
    {
      executorId: "a",
      metadata: { address: "a:80" },
      shards: ["1"],
      replicaShards: [{ shard: "0", rank: 2 }],
    },
    { executorId: "b", metadata: { address: "b:80" }, shards: ["0"] },
    {
      executorId: "c",
      metadata: { address: "c:80" },
      shards: [],
      replicaShards: [{ shard: "0", rank: 1 }],
    },
  ],
};

Deno.test("a snapshot's replica shards give owner sets in rank order, the primary first", () => {
  const placement = applyUpdate(undefined, REPLICATED, 0);
  assert.deepEqual(placement.ownerSets, new Map([["0", ["b", "c", "a"]]]));
  assert.equal(placement.owners.get("0")?.executorId, "b", "ownerOf stays the primary");
  assert.equal(placement.owners.get("1")?.executorId, "a");
});

Deno.test("a delta replaces or drops an owner set, keeping the map when none changes", () => {
  const before = applyUpdate(undefined, REPLICATED, 0);
  const moved = applyDelta(
    before,
    {
      kind: "delta",
      executors: [],
      owners: [{ shard: "0", owner: "b", owners: ["b", "a", "c"] }],
      removedExecutors: [],
    },
    2,
    1,
  ).placement;
  assert.deepEqual(moved.ownerSets.get("0"), ["b", "a", "c"]);
  assert.deepEqual(before.ownerSets.get("0"), ["b", "c", "a"], "the previous placement is kept");
  const single = applyDelta(
    moved,
    {
      kind: "delta",
      executors: [],
      owners: [{ shard: "0", owner: "c" }],
      removedExecutors: [],
    },
    3,
    2,
  ).placement;
  assert.equal(single.ownerSets.size, 0);
  const untouched = applyDelta(
    single,
    {
      kind: "delta",
      executors: [],
      owners: [{ shard: "1", owner: "b" }],
      removedExecutors: [],
    },
    4,
    3,
  ).placement;
  assert.equal(untouched.ownerSets, single.ownerSets);
});

Deno.test("spectator ownersOf lists every owner, and a set change alone is published", async () => {
  const { clock, fake } = fakeClock();
  const transport = new FakeTransport();
  await using spectator = createSpectator({
    addresses: ["x"],
    namespace: "ns",
    transport,
    clock,
    random: () => 0,
  });
  const stream = await transport.stream(0, () => fake.tickAsync(10));
  stream.push(REPLICATED);
  await spectator.ready;
  assert.deepEqual(spectator.ownersOf("0").map((o) => o.executorId), ["b", "c", "a"]);
  assert.deepEqual(spectator.ownersOf("1").map((o) => o.executorId), ["a"]);
  assert.deepEqual(spectator.ownersOf("9"), []);
  assert.equal(spectator.ownersOf("0")[1]?.metadata.address, "c:80");
  const version = spectator.placement?.version;
  stream.push({
    kind: "delta",
    executors: [],
    owners: [{ shard: "0", owner: "b", owners: ["b", "a", "c"] }],
    removedExecutors: [],
  });
  await fake.tickAsync(10);
  assert.deepEqual(spectator.ownersOf("0").map((o) => o.executorId), ["b", "a", "c"]);
  assert.equal(spectator.placement?.version, (version ?? 0) + 1);
  assert.deepEqual(await spectator.owners("0").then((o) => o.map((x) => x.executorId)), [
    "b",
    "a",
    "c",
  ]);
});

Deno.test("tryOwners tries owners in turn and gathers every error when all fail", async () => {
  const owners = ["a", "b", "c"].map((executorId) => ({ executorId, metadata: {} }));
  const tried: string[] = [];
  const answer = await tryOwners("ns", "7", owners, (owner, index) => {
    tried.push(`${owner.executorId}${index}`);
    return owner.executorId === "c" ? Promise.resolve("ok") : Promise.reject(new Error("down"));
  });
  assert.deepEqual([answer, tried], ["ok", ["a0", "b1", "c2"]]);
  const failed = await tryOwners("ns", "7", owners, () => Promise.reject(new Error("down")))
    .catch((e) => e);
  assert.ok(failed instanceof AllOwnersFailedError);
  assert.equal(failed.errors.length, 3);
  assert.deepEqual(failed.executorIds, ["a", "b", "c"]);
  assert.match(failed.message, /every owner failed \(a, b, c\)/);
  const none = await tryOwners("ns", "7", [], () => Promise.resolve(1)).catch((e) => e);
  assert.match(none.message, /it has no owner/);
  const fatal = new Error("bad request");
  await assert.rejects(
    tryOwners("ns", "7", owners, () => Promise.reject(fatal), { isRetryable: () => false }),
    (e) => e === fatal,
  );
  const controller = new AbortController();
  controller.abort(new Error("gave up"));
  await assert.rejects(
    tryOwners("ns", "7", owners, () => Promise.resolve(1), { signal: controller.signal }),
    /gave up/,
  );
});
