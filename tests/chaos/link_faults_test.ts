import assert from "node:assert/strict";
import { chunkFate, resolveLinkFaults, SLOW_LOSSY_LINK } from "./link_faults.ts";
import { SeededRandom } from "./random.ts";

const at = (now: number, lastRelease = 0, stalledUntil = 0) => ({ now, lastRelease, stalledUntil });

Deno.test("a healthy link forwards every chunk at once", () => {
  const faults = resolveLinkFaults({});
  assert.deepEqual(chunkFate(faults, at(50), Math.random), {
    action: "forward",
    releaseAt: 50,
    stallUntil: 0,
  });
});

Deno.test("delays stay within delay ± jitter and never reorder a direction", () => {
  const random = new SeededRandom(4);
  const faults = resolveLinkFaults({ delayMs: 200, jitterMs: 100 });
  let last = 0;
  for (let now = 0; now < 5_000; now += 7) {
    const fate = chunkFate(faults, at(now, last), () => random.next());
    assert.equal(fate.action, "forward");
    if (fate.action !== "forward") continue;
    assert.ok(fate.releaseAt >= last, "in order");
    assert.ok(fate.releaseAt <= now + 300 || fate.releaseAt === last);
    assert.ok(fate.releaseAt >= now + 100);
    last = fate.releaseAt;
  }
});

Deno.test("loss stalls the connection for an RTO-like time at about the given rate", () => {
  const random = new SeededRandom(11);
  const faults = resolveLinkFaults({ lossRate: 0.05 });
  let stalls = 0;
  for (let i = 0; i < 20_000; i++) {
    const fate = chunkFate(faults, at(1_000), () => random.next());
    if (fate.action !== "forward" || fate.stallUntil === 0) continue;
    stalls++;
    assert.ok(fate.stallUntil >= 1_200 && fate.stallUntil <= 2_000, `${fate.stallUntil}`);
    assert.equal(fate.releaseAt, fate.stallUntil, "the lost chunk waits out the stall");
  }
  assert.ok(stalls > 850 && stalls < 1_150, `about 5% of 20000, got ${stalls}`);
});

Deno.test("a chunk behind a stall waits for it even without a loss of its own", () => {
  const faults = resolveLinkFaults({ delayMs: 10, lossRate: 0 });
  const fate = chunkFate(faults, at(100, 0, 900), () => 0.5);
  assert.deepEqual(fate, { action: "forward", releaseAt: 900, stallUntil: 900 });
});

Deno.test("resets come at about the given rate", () => {
  const random = new SeededRandom(2);
  const faults = resolveLinkFaults({ resetRate: 0.01 });
  let resets = 0;
  for (let i = 0; i < 20_000; i++) {
    if (chunkFate(faults, at(0), () => random.next()).action === "reset") resets++;
  }
  assert.ok(resets > 150 && resets < 250, `about 1% of 20000, got ${resets}`);
});

Deno.test("bad knobs are refused with the knob and the value", () => {
  assert.throws(() => resolveLinkFaults({ delayMs: -1 }), /delayMs .* got -1/);
  assert.throws(() => resolveLinkFaults({ delayMs: 10, jitterMs: 20 }), /jitterMs .* got 20/);
  assert.throws(() => resolveLinkFaults({ lossRate: 1.5 }), /lossRate .* got 1.5/);
  assert.throws(() => resolveLinkFaults({ resetRate: NaN }), /resetRate/);
  assert.throws(() => resolveLinkFaults({ stallMs: [500, 100] }), /stallMs .* \[500, 100\]/);
  assert.deepEqual(resolveLinkFaults(SLOW_LOSSY_LINK), SLOW_LOSSY_LINK);
});
