import assert from "node:assert/strict";
import { clampToCapacity } from "./capacity_clamp.ts";

Deno.test("capacity clamp leaves a plan within the cap untouched", () => {
  const planned = Int32Array.of(0, 1, 0, 1);
  assert.equal(clampToCapacity(planned, Int32Array.of(-1, -1, 1, 0), 2, 2), 0);
  assert.deepEqual([...planned], [0, 1, 0, 1]);
});

Deno.test("capacity clamp keeps moved shards with their old owner and places freed ones where there is room", () => {
  // Executor 0 is planned 4 shards with room for 2: shard 3 was executor 1's, shard 2 unowned
  // goes to executor 1, which has room left.
  const planned = Int32Array.of(0, 0, 0, 0);
  const before = Int32Array.of(0, 0, -1, 1);
  assert.equal(clampToCapacity(planned, before, 2, 2), 0);
  assert.deepEqual([...planned], [0, 0, 1, 1]);
  // With room for one shard each, shard 2 stays unowned.
  const full = Int32Array.of(0, 0, 0, 0);
  assert.equal(clampToCapacity(full, Int32Array.of(0, -1, -1, 1), 2, 1), 2);
  assert.deepEqual([...full], [0, -1, -1, 1]);
});

Deno.test("capacity clamp applies each executor's own limit", () => {
  // Six new shards on three executors with room for 1, 2 and 3.
  const planned = Int32Array.of(0, 1, 2, 0, 1, 2);
  const before = new Int32Array(6).fill(-1);
  assert.equal(clampToCapacity(planned, before, 3, { shards: [1, 2, 3] }), 0);
  const counts = [0, 0, 0];
  for (const owner of planned) counts[owner]!++;
  assert.deepEqual(counts, [1, 2, 3]);
  // Infinity is no limit.
  const open = Int32Array.of(0, 0, 0);
  assert.equal(clampToCapacity(open, Int32Array.of(-1, -1, -1), 1, { shards: [Infinity] }), 0);
  assert.deepEqual([...open], [0, 0, 0]);
});

Deno.test("capacity clamp bounds the sum of loads, and places a freed shard where its load fits", () => {
  // Loads 4, 4, 1 planned on executor 0 (room for 5 units); executor 1 has room for 4.
  const planned = Int32Array.of(0, 0, 0);
  const limits = { shards: [Infinity, Infinity], load: [5, 4] };
  const left = clampToCapacity(planned, Int32Array.of(-1, -1, -1), 2, limits, [4, 4, 1]);
  assert.equal(left, 0);
  assert.deepEqual([...planned], [0, 1, 0]);
  // A shard heavier than any room stays unowned.
  const heavy = Int32Array.of(0, 0);
  assert.equal(clampToCapacity(heavy, Int32Array.of(0, -1), 2, limits, [4, 6]), 1);
  assert.deepEqual([...heavy], [0, -1]);
});

Deno.test("capacity clamp never takes away what an executor already owned above the cap", () => {
  const planned = Int32Array.of(0, 0, 0, 0);
  assert.equal(clampToCapacity(planned, Int32Array.of(0, 0, 0, -1), 1, 2), 1);
  assert.deepEqual(
    [...planned],
    [0, 0, 0, -1],
    "the three it held stay; the new one does not come",
  );
});
