import assert from "node:assert/strict";
import { applyDelta } from "./apply_delta.ts";
import { diffPlacements } from "./diff.ts";
import { applyUpdate } from "./placement.ts";

const before = applyUpdate(undefined, {
  kind: "snapshot",
  executors: [
    { executorId: "a", metadata: { address: "a:1" }, shards: ["0", "1", "2"] },
    { executorId: "b", metadata: { address: "b:1" }, shards: ["3"] },
  ],
}, 0);

Deno.test("a delta moves, adds and removes shards and changes executors, leaving the old placement", () => {
  const { placement, change } = applyDelta(
    before,
    {
      kind: "delta",
      executors: [{ executorId: "c", metadata: { address: "c:1" } }, {
        executorId: "b",
        metadata: { address: "b:2" },
      }],
      owners: [
        { shard: "1", owner: "c" },
        { shard: "2", owner: undefined },
        { shard: "9", owner: "b" },
        { shard: "0", owner: "a" },
      ],
      removedExecutors: [],
    },
    2,
    5,
  );
  assert.deepEqual(change, {
    added: ["9"],
    removed: ["2"],
    moved: [{ shard: "1", from: "a", to: "c" }],
    executorsChanged: ["c", "b"],
  });
  assert.deepEqual(change.moved, diffPlacements(before, placement).moved, "agrees with a diff");
  assert.equal(placement.owners.get("1")?.executorId, "c");
  assert.equal(placement.owners.get("2"), undefined);
  assert.equal(placement.owners.get("3")?.metadata.address, "b:2", "metadata re-pointed");
  assert.deepEqual(placement.executors.get("a")?.shards, ["0"]);
  assert.equal(placement.owners.get("0"), placement.executors.get("a"), "one shared object");
  assert.equal(before.owners.get("1")?.executorId, "a", "the old placement is untouched");
  assert.deepEqual(before.executors.get("a")?.shards, ["0", "1", "2"]);
  assert.deepEqual([placement.version, placement.receivedAtMs], [2, 5]);
});

Deno.test("a delta removes executors last", () => {
  const { placement, change } = applyDelta(
    before,
    {
      kind: "delta",
      executors: [],
      owners: [{ shard: "3", owner: "a" }],
      removedExecutors: ["b"],
    },
    2,
    0,
  );
  assert.equal(placement.executors.has("b"), false);
  assert.equal(placement.owners.get("3")?.executorId, "a");
  assert.deepEqual(change.executorsChanged, ["b"]);
});
