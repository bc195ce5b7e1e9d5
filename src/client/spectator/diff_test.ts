import assert from "node:assert/strict";
import { diffPlacements, isEmptyChange } from "./diff.ts";
import { applyUpdate } from "./placement.ts";
import { snapshot } from "./_fake_transport.ts";

const sorted = (list: readonly string[]) => [...list].sort();

Deno.test("diffPlacements reports added, removed and moved shards", () => {
  const before = applyUpdate(undefined, snapshot({ a: ["0", "1", "2"], b: ["3"] }), 0);
  const after = applyUpdate(before, snapshot({ a: ["0"], b: ["1", "3", "4"] }), 1);
  const change = diffPlacements(before, after);
  assert.deepEqual(change.added, ["4"]);
  assert.deepEqual(change.removed, ["2"]);
  assert.deepEqual(change.moved, [{ shard: "1", from: "a", to: "b" }]);
  assert.deepEqual(change.executorsChanged, []);
});

Deno.test("diffPlacements from nothing lists every shard and executor as new", () => {
  const after = applyUpdate(undefined, snapshot({ a: ["0"], b: ["1"], idle: [] }), 0);
  const change = diffPlacements(undefined, after);
  assert.deepEqual(sorted(change.added), ["0", "1"]);
  assert.deepEqual(sorted(change.executorsChanged), ["a", "b", "idle"]);
});

Deno.test("diffPlacements reports executors that join, leave or change metadata", () => {
  const before = applyUpdate(undefined, snapshot({ a: [], b: [], c: [] }), 0);
  const after = applyUpdate(before, {
    kind: "snapshot",
    executors: [
      { executorId: "a", metadata: { address: "a:80" }, shards: [] }, // unchanged
      { executorId: "b", metadata: { address: "b:81" }, shards: [] }, // new address
      { executorId: "d", metadata: {}, shards: [] }, // joined; c left
    ],
  }, 1);
  assert.deepEqual(sorted(diffPlacements(before, after).executorsChanged), ["b", "c", "d"]);
});

Deno.test("an identical snapshot is an empty change", () => {
  const before = applyUpdate(undefined, snapshot({ a: ["0"], b: ["1"] }), 0);
  const after = applyUpdate(before, snapshot({ b: ["1"], a: ["0"] }), 1);
  assert.ok(isEmptyChange(diffPlacements(before, after)));
  assert.ok(!isEmptyChange(diffPlacements(undefined, after)));
});
