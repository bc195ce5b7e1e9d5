import assert from "node:assert/strict";
import { LEASE_SLACK_MS, reassignmentBoundMs, type Timings } from "./bounds.ts";

const timings: Timings = {
  heartbeatTTLMs: 3_000,
  periodMs: 500,
  electionTTLMs: 2_000,
  failedElectionCooldownMs: 200,
  maxRandomDelayMs: 100,
  heartbeatIntervalMs: 500,
  heartbeatTimeoutMs: 1_000,
};

Deno.test("the bound adds staleness, a pass, a new leader and the new owner's heartbeat", () => {
  assert.equal(
    reassignmentBoundMs(timings),
    3_000 + 500 + (2_000 + LEASE_SLACK_MS + 200 + 100) + (1_000 + 1_100),
  );
});

Deno.test("the bound grows with heartbeatTTL", () => {
  const longer = reassignmentBoundMs({ ...timings, heartbeatTTLMs: 10_000 });
  assert.equal(longer - reassignmentBoundMs(timings), 7_000);
});

Deno.test("a negative timing is refused", () => {
  assert.throws(() => reassignmentBoundMs({ ...timings, periodMs: -1 }), RangeError);
});

Deno.test("an exclusive namespace's ownership lease counts when it is longer than heartbeatTTL", () => {
  const base = reassignmentBoundMs(timings);
  assert.equal(reassignmentBoundMs({ ...timings, ownershipLeaseMs: 3_000 }) - base, 230);
  assert.equal(reassignmentBoundMs({ ...timings, ownershipLeaseMs: 1_000 }), base);
});
