import assert from "node:assert/strict";
import { applyUpdate } from "./placement.ts";
import { snapshot } from "./_fake_transport.ts";

Deno.test("applyUpdate maps every shard to its executor, one shared frozen owner per executor", () => {
  const placement = applyUpdate(undefined, snapshot({ a: ["0", "1"], b: ["2"], idle: [] }), 5);
  assert.equal(placement.version, 1);
  assert.equal(placement.receivedAtMs, 5);
  assert.deepEqual([...placement.owners.keys()], ["0", "1", "2"]);
  assert.equal(placement.owners.get("0"), placement.owners.get("1"));
  assert.equal(placement.owners.get("0"), placement.executors.get("a"));
  assert.equal(placement.owners.get("2")?.executorId, "b");
  assert.deepEqual(placement.executors.get("idle")?.shards, []);
  assert.ok(Object.isFrozen(placement.executors.get("a")));
  assert.ok(Object.isFrozen(placement.executors.get("a")?.metadata));
});

Deno.test("applyUpdate numbers versions and leaves the previous placement untouched", () => {
  const first = applyUpdate(undefined, snapshot({ a: ["0", "1"] }), 1);
  const second = applyUpdate(first, snapshot({ b: ["1"] }), 2);
  assert.equal(second.version, 2);
  assert.equal(first.owners.get("1")?.executorId, "a");
  assert.equal(first.owners.size, 2);
  assert.equal(second.owners.get("1")?.executorId, "b");
  assert.equal(second.owners.has("0"), false);
});

Deno.test("applyUpdate copies the update's arrays, so later changes to them do not leak in", () => {
  const shards = ["0"];
  const placement = applyUpdate(undefined, {
    kind: "snapshot",
    executors: [{ executorId: "a", metadata: {}, shards }],
  }, 0);
  shards.push("1");
  assert.deepEqual(placement.executors.get("a")?.shards, ["0"]);
});
