import assert from "node:assert/strict";
import { backoffDelay, jittered } from "./backoff.ts";

Deno.test("backoff grows exponentially up to its ceiling, with full jitter", () => {
  const top = () => 0.999999;
  assert.equal(backoffDelay(0, { baseMs: 100, maxMs: 5_000 }, top), 99);
  assert.equal(backoffDelay(2, { baseMs: 100, maxMs: 5_000 }, top), 399);
  assert.equal(backoffDelay(20, { baseMs: 100, maxMs: 5_000 }, top), 4_999);
  assert.equal(backoffDelay(5, {}, () => 0), 0);
  assert.equal(backoffDelay(10_000, {}, top), 4_999, "huge attempts do not overflow");
});

Deno.test("jitter spreads a period both ways and never goes negative", () => {
  assert.equal(jittered(1_000, 0.2, () => 0), 800);
  assert.equal(jittered(1_000, 0.2, () => 0.5), 1_000);
  assert.equal(jittered(1_000, 2, () => 0), 0);
});
