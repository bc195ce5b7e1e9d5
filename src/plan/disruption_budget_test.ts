import assert from "node:assert/strict";
import { type BudgetExecutor, checkDrainBudget } from "./disruption_budget.ts";

const e = (executorId: string, options: Partial<BudgetExecutor> = {}): BudgetExecutor => ({
  executorId,
  alive: true,
  active: true,
  drained: false,
  matched: false,
  ...options,
});

Deno.test("draining one of three executors is within a 50% budget", () => {
  const verdict = checkDrainBudget({
    executors: [e("a", { matched: true }), e("b"), e("c")],
    shards: 12,
    maxDrainedShare: 0.5,
  });
  assert.equal(verdict.ok, true);
  assert.equal(verdict.reason, "");
});

Deno.test("draining two of three executors breaks a 50% budget and names the numbers", () => {
  const verdict = checkDrainBudget({
    executors: [e("a", { drained: true }), e("b", { matched: true }), e("c")],
    shards: 12,
    maxDrainedShare: 0.5,
  });
  assert.equal(verdict.ok, false);
  assert.match(
    verdict.reason,
    /drain 2 of 3 live executors \(67%\), more than maxDrainedShare 50%/,
  );
});

Deno.test("draining the last undrained executor leaves shards with no eligible owner", () => {
  const verdict = checkDrainBudget({
    executors: [e("a", { drained: true }), e("b", { matched: true })],
    shards: 12,
    maxDrainedShare: 1,
  });
  assert.equal(verdict.ok, false);
  assert.match(verdict.reason, /leave 12 shards with no eligible owner/);
});

Deno.test("stale executors do not count, and a drain that adds nothing is allowed", () => {
  const verdict = checkDrainBudget({
    executors: [e("a", { drained: true, matched: true }), e("b"), e("s", { alive: false })],
    shards: 4,
    maxDrainedShare: 0.5,
  });
  assert.equal(verdict.ok, true);
  assert.equal(verdict.live, 2);
});

Deno.test("a namespace with no shards only checks the share", () => {
  const verdict = checkDrainBudget({
    executors: [e("a", { matched: true })],
    shards: 0,
    maxDrainedShare: 1,
  });
  assert.equal(verdict.ok, true);
});

Deno.test("a maxDrainedShare outside 0..1 is a RangeError", () => {
  assert.throws(
    () => checkDrainBudget({ executors: [], shards: 0, maxDrainedShare: 2 }),
    RangeError,
  );
});
