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
    } else {
      assert.equal(plan.targets.length, 1);
    }
    assert.ok(plan.targets.every((t) => t >= 0 && t < 3));
    assert.ok(plan.holdMs >= 500 && plan.holdMs <= 6_000);
  }
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
