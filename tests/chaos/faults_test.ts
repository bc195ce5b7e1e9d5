import assert from "node:assert/strict";
import { FAULT_KINDS, faultSchedule, parseFaultKinds } from "./faults.ts";
import { SeededRandom } from "./random.ts";

Deno.test("a schedule starts with every fault kind once, then picks at random", () => {
  const plans = faultSchedule(new SeededRandom(1), 30);
  assert.equal(plans.length, 30);
  assert.deepEqual(
    new Set(plans.slice(0, FAULT_KINDS.length).map((p) => p.kind)),
    new Set(FAULT_KINDS),
  );
});

Deno.test("the same seed gives the same schedule", () => {
  assert.deepEqual(faultSchedule(new SeededRandom(9), 20), faultSchedule(new SeededRandom(9), 20));
  assert.notDeepEqual(
    faultSchedule(new SeededRandom(9), 20),
    faultSchedule(new SeededRandom(10), 20),
  );
});

Deno.test("a quorum loss kills two different members; holds stay in range", () => {
  for (const plan of faultSchedule(new SeededRandom(3), 200)) {
    if (plan.kind === "etcd-quorum-loss") {
      assert.equal(new Set(plan.targets).size, 2);
    } else if (plan.kind === "slow-lossy-links") {
      assert.equal(plan.targets.length, 0, "every link at once");
    } else {
      assert.equal(plan.targets.length, 1);
    }
    assert.ok(plan.targets.every((t) => t >= 0 && t < 3));
    const clock = plan.kind.startsWith("clock") || plan.kind === "slow-lossy-links";
    assert.ok(plan.holdMs >= 500 && plan.holdMs <= (clock ? 20_000 : 6_000));
  }
});

Deno.test("clock faults carry a faketime spec: a step of ±30 s or a clock 1% fast", () => {
  const plans = faultSchedule(new SeededRandom(5), 300, 3, ["clock-step", "clock-drift"]);
  const specs = new Set(plans.map((p) => `${p.kind} ${p.clock}`));
  assert.deepEqual(
    [...specs].sort(),
    ["clock-drift +0 x1.01", "clock-step +30s", "clock-step -30s"],
  );
});

Deno.test("a schedule can be limited to some kinds; unknown kinds are refused", () => {
  const plans = faultSchedule(new SeededRandom(2), 10, 3, ["slow-lossy-links", "clock-step"]);
  assert.deepEqual(new Set(plans.map((p) => p.kind)), new Set(["slow-lossy-links", "clock-step"]));
  assert.throws(
    // deno-lint-ignore no-explicit-any -- a bad value from the command line, on purpose
    () => faultSchedule(new SeededRandom(2), 3, 3, ["clock-jump" as any]),
    /kinds must be some of .* got \["clock-jump"\]/,
  );
  assert.throws(() => faultSchedule(new SeededRandom(2), 3, 3, []), RangeError);
});

Deno.test("a negative fault count is refused", () => {
  assert.throws(() => faultSchedule(new SeededRandom(1), -1), RangeError);
});

Deno.test("a schedule of chosen kinds holds only those; a one-way loss names its direction", () => {
  const kinds = ["executor-oneway-loss", "etcd-member-isolated"] as const;
  const plans = faultSchedule(new SeededRandom(4), 40, 3, kinds);
  assert.deepEqual(new Set(plans.map((p) => p.kind)), new Set(kinds));
  const lost = plans.filter((p) => p.kind === "executor-oneway-loss").map((p) => p.lost);
  assert.deepEqual(new Set(lost), new Set(["heartbeats", "answers"]));
  assert.ok(plans.every((p) => p.kind === "executor-oneway-loss" || p.lost === undefined));
  assert.throws(() => faultSchedule(new SeededRandom(1), 1, 3, []), RangeError);
});

Deno.test("--kinds names known kinds only", () => {
  assert.deepEqual(parseFaultKinds("etcd-member-isolated,etcd-member-isolated"), [
    "etcd-member-isolated",
  ]);
  assert.throws(() => parseFaultKinds(""), /--kinds/);
  assert.throws(() => parseFaultKinds("service-pause,nope"), /"service-pause,nope"/);
});

Deno.test("--kinds takes known kinds, once each, and names what it refuses", () => {
  assert.deepEqual(parseFaultKinds("clock-step, slow-lossy-links,clock-step"), [
    "clock-step",
    "slow-lossy-links",
  ]);
  assert.throws(
    () => parseFaultKinds("clock-step,clock-jump"),
    /--kinds must be .* "clock-step,clock-jump"/,
  );
  assert.throws(() => parseFaultKinds(" , "), RangeError);
});
