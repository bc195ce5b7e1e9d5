import assert from "node:assert/strict";
import { countMoves } from "./count_moves.ts";

Deno.test("countMoves counts owned shards whose owner changed, not assignments", () => {
  assert.equal(countMoves(Int32Array.of(0, 1, -1, 2), Int32Array.of(0, 2, 1, 0)), 2);
  assert.equal(countMoves(Int32Array.of(), Int32Array.of()), 0);
});

Deno.test("countMoves rejects assignments of different lengths", () => {
  assert.throws(() => countMoves(Int32Array.of(0), Int32Array.of(0, 1)), RangeError);
});
