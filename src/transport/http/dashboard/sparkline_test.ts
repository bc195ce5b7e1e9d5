import assert from "node:assert/strict";
import { sparklinePath } from "../../../../packages/dashboard_browser/sparkline.js";

Deno.test("a sparkline spans the window: the oldest sample at the left, the newest at the right, 0 at the bottom", () => {
  const line = sparklinePath([1_000, 2_000, 3_000], [0, 5, 10], 1_000, 3_000, 120, 20);
  assert.equal(line.d, "M0 20L60 10L120 0");
  assert.deepEqual([line.min, line.max], [0, 10]);
});

Deno.test("a sparkline breaks where the executor was not sampled, and leaves out samples outside the window", () => {
  const line = sparklinePath([0, 10, 20, 30, 40], [9, 1, null, 2, 2], 10, 40, 30, 10);
  assert.equal(line.d, "M0 5h1M20 0L30 0"); // the lone point before the gap is a dash
  assert.deepEqual([line.min, line.max], [1, 2]);
});

Deno.test("a sparkline of nothing is empty, and of zeros is flat at the bottom", () => {
  assert.deepEqual(sparklinePath([], [], 0, 10, 10, 10), { d: "", min: 0, max: 0 });
  assert.equal(sparklinePath([0, 10], [0, 0], 0, 10, 10, 4).d, "M0 4L10 4");
});

Deno.test("a sparkline's function carries no outside reference, so the page can embed its source", () => {
  const rebuilt = new Function(`return (${sparklinePath.toString()})`)() as typeof sparklinePath;
  assert.equal(rebuilt([0, 10], [1, 2], 0, 10, 10, 10).d, "M0 5L10 0");
});
