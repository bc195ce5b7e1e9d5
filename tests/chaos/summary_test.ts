import assert from "node:assert/strict";
import { percentiles, table } from "./summary.ts";

Deno.test("percentiles use the nearest rank", () => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.deepEqual(percentiles(values), { count: 100, p50: 50, p99: 99, max: 100 });
  assert.deepEqual(percentiles([]), { count: 0, p50: 0, p99: 0, max: 0 });
});

Deno.test("a table aligns its values", () => {
  assert.equal(table("T", [["a", 1], ["long label", "x"]]), "T\n  a           1\n  long label  x");
});
