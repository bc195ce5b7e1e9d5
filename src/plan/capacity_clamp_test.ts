import assert from "node:assert/strict";
import { clampToCapacity } from "./capacity_clamp.ts";

Deno.test("capacity clamp leaves a plan within the cap untouched", () => {
  const planned = Int32Array.of(0, 1, 0, 1);
  assert.equal(clampToCapacity(planned, Int32Array.of(-1, -1, 1, 0), 2, 2), 0);
  assert.deepEqual([...planned], [0, 1, 0, 1]);
});

Deno.test("capacity clamp keeps moved shards with their old owner and leaves new ones unowned", () => {
  // Executor 0 is planned 4 shards with room for 2: shard 3 was executor 1's, shard 2 unowned.
  const planned = Int32Array.of(0, 0, 0, 0);
  const before = Int32Array.of(0, 0, -1, 1);
  assert.equal(clampToCapacity(planned, before, 2, 2), 1);
  assert.deepEqual([...planned], [0, 0, -1, 1]);
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
