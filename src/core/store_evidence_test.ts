import assert from "node:assert/strict";
import { StoreEvidence } from "./store_evidence.ts";

function manualClock(start = 1_000) {
  const time = { t: start };
  return { time, clock: { now: () => 1e12 + time.t, monotonic: () => time.t } };
}

Deno.test("store evidence is silent until the store is first heard", () => {
  const { time, clock } = manualClock();
  const evidence = new StoreEvidence({ silenceMs: 500, clock });
  assert.equal(evidence.silentAt(time.t), true);
  assert.equal(evidence.vouchedAt(time.t), -Infinity);
  evidence.heard();
  assert.equal(evidence.silentAt(time.t), false);
  assert.deepEqual(evidence.last, { now: 1_000, wallMs: 1e12 + 1_000 });
});

Deno.test("liveness is vouched for only up to the store's last answer", () => {
  const { time, clock } = manualClock();
  const evidence = new StoreEvidence({ silenceMs: 500, clock });
  evidence.heard();
  time.t += 400;
  assert.equal(evidence.vouchedAt(time.t), 1_000, "a stall that began since is not counted");
  assert.equal(evidence.silentAt(time.t), false);
  time.t += 101;
  assert.equal(evidence.silentAt(time.t), true, "silent once silenceMs passed without an answer");
  assert.equal(evidence.vouchedAt(900), 900, "never later than the time asked about");
});

Deno.test("an answer after a silence tells the resume listeners once, with the silence's start", () => {
  const { time, clock } = manualClock();
  const evidence = new StoreEvidence({ silenceMs: 500, clock });
  const resumed: [number, number][] = [];
  const unsubscribe = evidence.onResume((since, now) => resumed.push([since, now]));
  evidence.heard();
  time.t += 500;
  evidence.heard(); // exactly silenceMs: not a silence
  time.t += 6_000;
  evidence.heard();
  evidence.heard();
  assert.deepEqual(resumed, [[1_500, 7_500]]);
  unsubscribe();
  time.t += 6_000;
  evidence.heard();
  assert.equal(resumed.length, 1);
});

Deno.test("store evidence refuses a silence that is not a positive duration", () => {
  assert.throws(() => new StoreEvidence({ silenceMs: 0 }), RangeError);
  assert.throws(() => new StoreEvidence({ silenceMs: Number.NaN }), /silenceMs/);
});
