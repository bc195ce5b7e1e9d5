import assert from "node:assert/strict";
import { NamespaceState } from "../../state/namespace_state.ts";
import { putExecutor } from "../../state/_testing.ts";
import { MAX_NAMED, MembershipTracker } from "./history_notes.ts";

const TTL = 1_000;

function fleet(ids: readonly string[], seenAtMs: number): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  for (const executorId of ids) putExecutor(state, { executorId, seenAtMs });
  return state;
}

const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `e${i + from}`);

Deno.test("membership notes name each executor that joins or is lost, a few at a time", () => {
  const tracker = new MembershipTracker();
  assert.deepEqual(tracker.observe(fleet(["a"], 0), 0), [], "the first pass learns the picture");
  const notes = tracker.observe(fleet(["a", "b", "c"], 100), 100);
  assert.deepEqual(notes.map((n) => [n.type, n.executorId]), [
    ["executor_joined", "b"],
    ["executor_joined", "c"],
  ]);
  const state = fleet(["b", "c"], 200);
  putExecutor(state, { executorId: "a", seenAtMs: 0 });
  const lost = tracker.observe(state, 1_100);
  assert.deepEqual(lost.map((n) => [n.type, n.executorId]), [["executor_lost", "a"]]);
});

Deno.test("membership notes: thousands joining or lost make one note each, not one per executor", () => {
  const tracker = new MembershipTracker();
  tracker.observe(fleet([], 0), 0);
  const many = ids(20_000);
  const joined = tracker.observe(fleet(many, 100), 100);
  assert.equal(joined.length, 1);
  assert.equal(joined[0]?.type, "executor_joined");
  assert.equal(joined[0]?.executorId, undefined);
  assert.match(
    joined[0]?.text ?? "",
    /^20,000 executors joined: e0, e1, e10, e100, e1000 and 19,995 more$/,
  );
  // Exactly MAX_NAMED are still named one by one.
  const more = tracker.observe(fleet([...many, ...ids(MAX_NAMED, 20_000)], 200), 200);
  assert.equal(more.length, MAX_NAMED);
  const gone = tracker.observe(fleet(ids(100), 300), 300);
  assert.equal(gone.length, 1);
  assert.match(gone[0]?.text ?? "", /^19,910 executors lost or left \(they held 0 shards\): /);
});
