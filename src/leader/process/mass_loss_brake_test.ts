import assert from "node:assert/strict";
import { type BrakeExecutor, MassLossBrake } from "./mass_loss_brake.ts";

const RULE = { share: 0.3, windowMs: 4_000, minLost: 2 };
const IDS = Array.from({ length: 10 }, (_, i) => `e${i}`);

/** Ten executors: `lost` not heard from, `draining` reporting DRAINING, `drained` by an operator. */
function fleet(
  changes: { lost?: number[]; draining?: number[]; drained?: number[] } = {},
): BrakeExecutor[] {
  return IDS.map((executorId, i) => ({
    executorId,
    alive: !changes.lost?.includes(i),
    status: changes.draining?.includes(i) ? "DRAINING" : "ACTIVE",
    operatorDrained: changes.drained?.includes(i) ?? false,
  }));
}

const SIX = [0, 1, 2, 3, 4, 5];

Deno.test("mass-loss brake engages when 6 of 10 executors are lost at once", () => {
  const brake = new MassLossBrake(RULE);
  assert.equal(brake.observe(fleet(), 0), undefined, "the first pass learns the fleet");
  const note = brake.observe(fleet({ lost: SIX }), 1_000);
  assert.equal(note?.type, "brake_engaged");
  assert.equal(note?.reason, "mass_loss");
  assert.match(note?.text ?? "", /6 of 10 serving executors lost within 4s \(more than 30%\)/);
  assert.deepEqual(brake.hold && [...brake.hold.lost].sort(), IDS.slice(0, 6));
  assert.equal(brake.hold?.executorsBefore, 10);
  assert.equal(brake.version, 1);
});

Deno.test("mass-loss brake counts losses within the window together, and not beyond it", () => {
  const brake = new MassLossBrake(RULE);
  brake.observe(fleet(), 0);
  assert.equal(brake.observe(fleet({ lost: [0, 1] }), 1_000), undefined, "2 of 10 is 20%");
  assert.equal(brake.observe(fleet({ lost: [0, 1, 2, 3] }), 2_000)?.type, "brake_engaged");

  const slow = new MassLossBrake(RULE);
  slow.observe(fleet(), 0);
  slow.observe(fleet({ lost: [0, 1] }), 1_000);
  slow.observe(fleet({ lost: [0, 1, 2] }), 6_000); // 0 and 1 fell out of the window
  assert.equal(slow.observe(fleet({ lost: [0, 1, 2, 3] }), 7_000), undefined);
  assert.equal(slow.hold, undefined);
});

Deno.test("mass-loss brake: a single lost executor never engages it, whatever the share", () => {
  const brake = new MassLossBrake(RULE);
  const two = fleet().slice(0, 2);
  brake.observe(two, 0);
  assert.equal(brake.observe([two[0]!, { ...two[1]!, alive: false }], 1_000), undefined);
});

Deno.test("mass-loss brake: planned departures (operator drains, DRAINING) never engage it", () => {
  const brake = new MassLossBrake(RULE);
  brake.observe(fleet(), 0);
  // An operator drains six executors, which then report DRAINING and finally stop.
  assert.equal(brake.observe(fleet({ drained: SIX }), 1_000), undefined);
  assert.equal(brake.observe(fleet({ drained: SIX, draining: SIX }), 2_000), undefined);
  assert.equal(brake.observe(fleet({ drained: SIX, lost: SIX }), 3_000), undefined);
  // Executors that report DRAINING on their own (a shutdown) and stop are not lost either.
  const own = new MassLossBrake(RULE);
  own.observe(fleet(), 0);
  own.observe(fleet({ draining: SIX }), 1_000);
  assert.equal(own.observe(fleet({ draining: SIX, lost: SIX }), 2_000), undefined);
  assert.equal(own.hold, undefined);
});

Deno.test("mass-loss brake is released when the lost executors return", () => {
  const brake = new MassLossBrake(RULE);
  brake.observe(fleet(), 0);
  brake.observe(fleet({ lost: SIX }), 1_000);
  assert.equal(brake.observe(fleet({ lost: [0, 1] }), 5_000), undefined, "two still missing");
  const note = brake.observe(fleet(), 6_000);
  assert.equal(note?.type, "brake_released");
  assert.equal(note?.reason, "executors_returned");
  assert.equal(note?.durationMs, 5_000);
  assert.equal(brake.hold, undefined);
  assert.equal(brake.version, 2);
});

Deno.test("mass-loss brake is released when as many executors serve as before the loss", () => {
  const brake = new MassLossBrake(RULE);
  brake.observe(fleet(), 0);
  brake.observe(fleet({ lost: SIX }), 1_000);
  // Six replacements with new names (a Kubernetes deployment) join.
  const replacements = SIX.map((i) => ({
    executorId: `new-${i}`,
    alive: true,
    status: "ACTIVE" as const,
    operatorDrained: false,
  }));
  const note = brake.observe([...fleet({ lost: SIX }), ...replacements], 2_000);
  assert.equal(note?.type, "brake_released");
});

Deno.test("mass-loss brake lifted by an operator stays released until a new loss", () => {
  const brake = new MassLossBrake(RULE);
  assert.equal(brake.lift(0, "ops"), undefined, "nothing to lift");
  brake.observe(fleet(), 0);
  brake.observe(fleet({ lost: SIX }), 1_000);
  const note = brake.lift(3_000, "ops");
  assert.equal(note?.type, "brake_released");
  assert.equal(note?.reason, "lifted");
  assert.equal(note?.actor, "ops");
  assert.match(note?.text ?? "", /lifted by ops/);
  assert.equal(brake.observe(fleet({ lost: SIX }), 3_500), undefined, "the same loss");
  assert.equal(brake.hold, undefined);
  // The six come back, then four others are lost: a new mass loss.
  brake.observe(fleet(), 4_000);
  assert.equal(brake.observe(fleet({ lost: [6, 7, 8, 9] }), 5_000)?.type, "brake_engaged");
});

Deno.test("mass-loss brake: a new term counts executors that went stale within the window before it", () => {
  const rule = { ...RULE, heartbeatTtlMs: 2_000 };
  // The previous leader died with a zone: six executors were last heard 1 s before the TTL ran
  // out at 10_000, and two long ago (an old loss, outside the window).
  const seen = (i: number) => i < 6 ? 9_000 : i < 8 ? 1_000 : 12_000;
  const executors = fleet({ lost: [0, 1, 2, 3, 4, 5, 6, 7] }).map((e, i) => ({
    ...e,
    alive: i >= 8,
    seenAtMs: seen(i),
  }));
  const brake = new MassLossBrake(rule);
  const note = brake.observe(executors, 12_500);
  assert.equal(note?.type, "brake_engaged");
  assert.match(note?.text ?? "", /6 of 8 serving executors lost/);
  // An executor drained (or DRAINING) when it went quiet is not counted.
  const drained = new MassLossBrake(rule);
  const planned = executors.map((e, i) => i < 6 ? { ...e, operatorDrained: true } : e);
  assert.equal(drained.observe(planned, 12_500), undefined);
  // Nor are losses older than the window.
  assert.equal(new MassLossBrake(rule).observe(executors, 30_000), undefined);
});

Deno.test("mass-loss brake: executors not heard from since the namespace was loaded count neither as serving nor as lost", () => {
  // An instance that just loaded the namespace takes all ten as seen at the load; six of
  // them were gone already. When they turn stale one TTL later, nothing was lost.
  const brake = new MassLossBrake(RULE);
  const loaded = fleet().map((e, i) => ({ ...e, witnessed: i >= 6 }));
  assert.equal(brake.observe(loaded, 0), undefined);
  const stale = fleet({ lost: SIX }).map((e, i) => ({ ...e, witnessed: i >= 6 }));
  assert.equal(brake.observe(stale, 2_000), undefined);
  assert.equal(brake.hold, undefined);
  // A reload (a resync) makes every executor unwitnessed again: none is lost by it.
  const reloaded = new MassLossBrake(RULE);
  reloaded.observe(fleet(), 0);
  const unknown = fleet().map((e) => ({ ...e, witnessed: false }));
  assert.equal(reloaded.observe(unknown, 1_000), undefined);
  // Heard from again, then six lost at once: that is a mass loss.
  reloaded.observe(fleet(), 2_000);
  assert.equal(reloaded.observe(fleet({ lost: SIX }), 3_000)?.type, "brake_engaged");
});

Deno.test("mass-loss brake: a restored engaged record holds until the lost executors return", () => {
  const brake = new MassLossBrake(RULE);
  brake.restore(
    {
      state: "engaged",
      sinceMs: 90_000,
      reason: "6 of 10 lost",
      executorsBefore: 10,
      lost: IDS.slice(0, 6),
      term: 3,
    },
    50_000,
    100_000,
  );
  assert.equal(brake.hold?.sinceMs, 40_000, "engaged 10 s before, on the monotonic clock");
  assert.equal(brake.version, 1);
  assert.equal(brake.observe(fleet({ lost: SIX }), 50_000), undefined, "still holds");
  assert.equal(brake.hold?.executorsBefore, 10);
  assert.equal(brake.observe(fleet(), 51_000)?.type, "brake_released");
});

Deno.test("mass-loss brake: a restored lift keeps the executors lost before it from engaging it again", () => {
  const rule = { ...RULE, heartbeatTtlMs: 2_000 };
  const executors = fleet({ lost: SIX }).map((e, i) => ({
    ...e,
    seenAtMs: i < 6 ? 9_000 : 12_000,
    lastHeartbeatMs: i < 6 ? 1_000_000 : 1_003_000,
  }));
  const lifted = {
    state: "lifted",
    sinceMs: 1_002_000,
    reason: "6 of 10 lost",
    executorsBefore: 10,
    lost: IDS.slice(0, 6),
    endedAtMs: 1_002_500,
    liftedBy: "ops",
    term: 3,
  } as const;
  const brake = new MassLossBrake(rule);
  brake.restore(lifted, 12_500, 1_003_500);
  assert.equal(brake.hold, undefined);
  assert.equal(brake.observe(executors, 12_500), undefined);
  // Without the record, the same first pass engages it (they went stale within the window).
  assert.equal(new MassLossBrake(rule).observe(executors, 12_500)?.type, "brake_engaged");
});
