import assert from "node:assert/strict";
import type { BudgetExecutor } from "./disruption_budget.ts";
import { checkStop, type StopNamespace } from "./stop_check.ts";

const e = (executorId: string, options: Partial<BudgetExecutor> = {}): BudgetExecutor => ({
  executorId,
  alive: true,
  active: true,
  drained: false,
  matched: false,
  ...options,
});

const ns = (namespace: string, executors: BudgetExecutor[], share = 0.5): StopNamespace => ({
  namespace,
  executors,
  shards: 12,
  maxDrainedShare: share,
});

Deno.test("stopping executors within every budget is allowed, all of them", () => {
  const check = checkStop([ns("ns", ["a", "b", "c", "d"].map((id) => e(id)))], ["a", "b"]);
  assert.equal(check.allowed, true);
  assert.deepEqual(check.mayStop, ["a", "b"]);
  assert.deepEqual(check.mustWait, []);
  assert.equal(check.verdicts.get("ns")?.drainedAfter, 2);
});

Deno.test("executors already leaving count against the budget", () => {
  const executors = [e("a", { drained: true }), e("b", { drained: true }), e("c"), e("d")];
  const check = checkStop([ns("ns", executors)], ["c"]);
  assert.equal(check.allowed, false);
  assert.match(check.verdicts.get("ns")?.reason ?? "", /drain 3 of 4 live executors/);
  assert.deepEqual(check.mustWait, ["c"]);
});

Deno.test("the subset puts first the executors that take nothing more out", () => {
  const executors = [e("a"), e("b"), e("c", { alive: false }), e("d", { drained: true }), e("f")];
  const check = checkStop([ns("ns", executors, 0.4)], ["a", "b", "c", "d"]);
  assert.equal(check.allowed, false);
  // d is out already (1 of 4 live), a makes 2 of 4 = 50% > 40%: only c and d may go.
  assert.deepEqual(check.mayStop, ["c", "d"]);
  assert.deepEqual(check.mustWait, ["a", "b"]);
});

Deno.test("an executor in two namespaces may stop only if both budgets hold", () => {
  const one = ns("one", [e("a"), e("b"), e("c"), e("d")]);
  const two = ns("two", [e("a"), e("x")], 0.4);
  const check = checkStop([one, two], ["a", "b"]);
  assert.equal(check.allowed, false);
  assert.equal(check.verdicts.get("one")?.ok, true);
  assert.equal(check.verdicts.get("two")?.ok, false);
  assert.deepEqual(check.mayStop, ["b"]);
  assert.deepEqual(check.mustWait, ["a"]);
});

Deno.test("the last eligible owner may never stop", () => {
  const check = checkStop([ns("ns", [e("a"), e("b", { drained: true })], 1)], ["a"]);
  assert.equal(check.allowed, false);
  assert.match(check.verdicts.get("ns")?.reason ?? "", /no eligible owner/);
  assert.deepEqual(check.mayStop, []);
});

Deno.test("an executor no namespace knows may stop", () => {
  const check = checkStop([ns("ns", [e("a"), e("b")])], ["ghost"]);
  assert.equal(check.allowed, true);
  assert.deepEqual(check.mayStop, ["ghost"]);
});
