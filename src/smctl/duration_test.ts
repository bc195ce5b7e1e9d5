import assert from "node:assert/strict";
import { formatDuration, parseDuration } from "./duration.ts";

Deno.test("parseDuration reads ms, s, m and h, alone or combined", () => {
  assert.equal(parseDuration("500ms"), 500);
  assert.equal(parseDuration("5s"), 5_000);
  assert.equal(parseDuration("1.5s"), 1_500);
  assert.equal(parseDuration("2m"), 120_000);
  assert.equal(parseDuration("1m30s"), 90_000);
  assert.equal(parseDuration("1h"), 3_600_000);
  assert.equal(parseDuration(" 10s "), 10_000);
});

Deno.test("parseDuration refuses bare numbers, unknown units, zero and junk, naming the text", () => {
  for (const text of ["5", "", "5x", "s", "-5s", "5s junk", "1.s", "0s", "0.1ms"]) {
    assert.throws(() => parseDuration(text), TypeError, `accepted ${JSON.stringify(text)}`);
  }
  assert.throws(() => parseDuration("5"), /expected a duration such as 500ms, 5s or 2m, got "5"/);
});

Deno.test("formatDuration keeps at most two units and one decimal below ten seconds", () => {
  assert.equal(formatDuration(0), "0ms");
  assert.equal(formatDuration(-5), "0ms");
  assert.equal(formatDuration(250), "250ms");
  assert.equal(formatDuration(1_000), "1s");
  assert.equal(formatDuration(1_250), "1.3s");
  assert.equal(formatDuration(9_990), "10s");
  assert.equal(formatDuration(42_700), "42s");
  assert.equal(formatDuration(120_000), "2m");
  assert.equal(formatDuration(192_000), "3m12s");
  assert.equal(formatDuration(7_500_000), "2h5m");
  assert.equal(formatDuration(4 * 86_400_000 + 3_600_000), "4d1h");
});
