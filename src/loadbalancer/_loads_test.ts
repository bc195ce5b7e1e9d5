import assert from "node:assert/strict";
import { effectiveLoads } from "./_loads.ts";

Deno.test("effectiveLoads replaces unknown loads with the mean of the known ones", () => {
  assert.deepEqual([...effectiveLoads(Float64Array.of(1, NaN, 5))], [1, 3, 5]);
});

Deno.test("effectiveLoads turns all-unknown, all-zero or all-equal loads into ones", () => {
  for (const reported of [[NaN, NaN], [0, 0], [0.1, 0.1], [2, NaN]]) {
    assert.deepEqual([...effectiveLoads(Float64Array.from(reported))], [1, 1]);
  }
});

Deno.test("effectiveLoads does not mutate its input", () => {
  const reported = Float64Array.of(NaN, 2);
  effectiveLoads(reported);
  assert.ok(Number.isNaN(reported[0]));
});
