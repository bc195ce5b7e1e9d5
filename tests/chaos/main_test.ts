import assert from "node:assert/strict";
import { parseKinds } from "./main.ts";

Deno.test("--kinds takes known kinds, once each, and names what it refuses", () => {
  assert.deepEqual(parseKinds("clock-step, slow-lossy-links,clock-step"), [
    "clock-step",
    "slow-lossy-links",
  ]);
  assert.throws(
    () => parseKinds("clock-step,clock-jump"),
    /--kinds must list .* "clock-step,clock-jump"/,
  );
  assert.throws(() => parseKinds(" , "), RangeError);
});
