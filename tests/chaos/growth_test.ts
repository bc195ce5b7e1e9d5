import assert from "node:assert/strict";
import { judgeGrowth, type Point } from "./growth.ts";

const LIMIT = { relative: 0.25, absolute: 10 };
const series = (n: number, value: (i: number) => number): Point[] =>
  Array.from({ length: n }, (_, i) => [1_000 * i, value(i)] as const);

Deno.test("a flat series with noise and spikes has not leaked", () => {
  const points = series(60, (i) => 100 + ((i * 7) % 5) + (i % 17 === 0 ? 80 : 0));
  const growth = judgeGrowth(points, 0, LIMIT);
  assert.equal(growth.leaked, false);
  assert.equal(growth.unjudged, false);
  assert.equal(growth.samples, 60);
});

Deno.test("a steady climb past both limits has leaked", () => {
  const growth = judgeGrowth(series(60, (i) => 100 + i), 0, LIMIT);
  assert.equal(growth.leaked, true);
  assert.ok(growth.late - growth.early > 25);
});

Deno.test("growth must pass both limits: large relative on a tiny base is not a leak", () => {
  // 2 → 8 handles: 300% more, but 6 < the absolute limit of 10.
  assert.equal(judgeGrowth(series(30, (i) => (i < 15 ? 2 : 8)), 0, LIMIT).leaked, false);
  // 1000 → 1015: 15 more, past the absolute limit, but 1.5% < 25%.
  assert.equal(judgeGrowth(series(30, (i) => (i < 15 ? 1000 : 1015)), 0, LIMIT).leaked, false);
});

Deno.test("samples before the warm-up are ignored", () => {
  // A process that grows while it warms up, then stays flat.
  const points = series(60, (i) => (i < 20 ? 10 * i : 200));
  assert.equal(judgeGrowth(points, 0, LIMIT).leaked, true);
  assert.equal(judgeGrowth(points, 20_000, LIMIT).leaked, false);
});

Deno.test("fewer than 6 samples after the warm-up are not judged", () => {
  const growth = judgeGrowth(series(10, (i) => i * 100), 5_000, LIMIT);
  assert.equal(growth.unjudged, true);
  assert.equal(growth.leaked, false);
  assert.equal(judgeGrowth([], 0, LIMIT).samples, 0);
});
