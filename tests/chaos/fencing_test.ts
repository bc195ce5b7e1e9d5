import assert from "node:assert/strict";
import type { ChaosEvent, FenceWriteEvent } from "./events.ts";
import { checkFencing } from "./fencing.ts";

const write = (count: number, token: string, executor = "a", at = count * 10): FenceWriteEvent => ({
  type: "write",
  at,
  process: `p-${executor}`,
  executor,
  namespace: "n",
  shard: "0",
  token,
  count,
});
const finals = (count: number, token = "9") => new Map([["n/0", { token, count }]]);
const rules = (events: ChaosEvent[], final = finals(events.length), readAt = 1_000_000) =>
  checkFencing(events, final, readAt).violations.map((v) => v.rule);

Deno.test("writes of one owner, then of a new owner with a greater token, pass", () => {
  const events = [write(1, "5"), write(2, "5"), write(3, "9", "b"), write(4, "9", "b")];
  const result = checkFencing(events, finals(4), 1_000_000);
  assert.deepEqual(result.violations, []);
  assert.equal(result.writes, 4);
  assert.equal(result.shards, 1);
});

Deno.test("a write accepted with a lower token than an earlier one is a stale owner", () => {
  // Numbered in the store's order; recorded out of order by the processes.
  const events = [write(3, "5", "a", 5), write(1, "5"), write(2, "9", "b")];
  const result = checkFencing(events, finals(3), 1_000_000);
  assert.deepEqual(result.violations.map((v) => v.rule), ["fencing-stale"]);
  assert.match(result.violations[0]!.message, /#3 .* by a with token 5 was accepted after #2/);
});

Deno.test("two executors writing with one token is a stale owner", () => {
  assert.deepEqual(rules([write(1, "5", "a"), write(2, "5", "b")]), ["fencing-stale"]);
});

Deno.test("tokens compare as integers, not as strings", () => {
  assert.deepEqual(rules([write(1, "9"), write(2, "10", "b")]), []);
  assert.deepEqual(rules([write(1, "10"), write(2, "9", "b")]), ["fencing-stale"]);
});

Deno.test("an acknowledged write missing from the final values is lost", () => {
  assert.deepEqual(rules([write(1, "5"), write(2, "5")], finals(1)), ["fencing-lost"]);
  assert.deepEqual(rules([write(1, "5")], new Map()), ["fencing-lost"]);
  // Two acknowledged writes with one number: one overwrote the other.
  assert.deepEqual(rules([write(1, "5"), write(1, "5", "a", 20)], finals(1)), ["fencing-lost"]);
});

Deno.test("a write acknowledged after the final read began is not judged lost", () => {
  const events = [write(1, "5", "a", 10), write(2, "5", "a", 30)];
  assert.deepEqual(rules(events, finals(1), 20), []);
  assert.deepEqual(rules(events, finals(1), 31), ["fencing-lost"]);
});

Deno.test("refused writes are counted, not judged", () => {
  const refused: ChaosEvent = {
    type: "write-rejected",
    at: 5,
    process: "p-a",
    executor: "a",
    namespace: "n",
    shard: "0",
    token: "3",
    stored: "5",
  };
  const result = checkFencing([write(1, "5"), refused], finals(1), 1_000);
  assert.equal(result.rejected, 1);
  assert.deepEqual(result.violations, []);
});
