import assert from "node:assert/strict";
import { ago, isoTime, shortTime, timestampMs } from "./time.ts";

Deno.test("timestampMs reads int64 seconds and nanos; unset and zero timestamps are null", () => {
  assert.equal(timestampMs({ seconds: "1700000000", nanos: 123_456_789 }), 1_700_000_000_123);
  assert.equal(timestampMs({ seconds: "0", nanos: 0 }), null);
  assert.equal(timestampMs(null), null);
  assert.equal(timestampMs(undefined), null);
});

Deno.test("times print as ISO in JSON, as short UTC in tables, and as an age", () => {
  const ms = Date.UTC(2025, 0, 2, 3, 4, 5, 600);
  assert.equal(isoTime(ms), "2025-01-02T03:04:05.600Z");
  assert.equal(shortTime(ms), "2025-01-02 03:04:05Z");
  assert.equal(shortTime(null), "-");
  assert.equal(ago(ms, ms + 192_000), "3m12s ago");
  assert.equal(ago(ms, ms - 50), "0ms ago");
  assert.equal(ago(null, ms), "-");
});
