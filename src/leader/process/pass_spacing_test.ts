import assert from "node:assert/strict";
import { PassSpacing, PLANNING_SHARE } from "./pass_spacing.ts";

Deno.test("pass spacing is the cooldown until passes grow long, then keeps planning to its share", () => {
  const spacing = new PassSpacing(500);
  assert.equal(spacing.cooldownMs(), 500, "no pass yet");
  spacing.planned(100);
  assert.equal(spacing.cooldownMs(), 500, "100 ms passes every 500 ms take 20%");
  spacing.planned(800);
  assert.equal(spacing.cooldownMs(), 800 / PLANNING_SHARE);
  spacing.planned(3);
  assert.equal(spacing.cooldownMs(), 500, "it follows the last pass, not the longest");
  spacing.planned(NaN);
  assert.equal(spacing.cooldownMs(), 500, "a nonsense duration counts as none");
});
