import assert from "node:assert/strict";
import { applyEvents, putExecutor } from "./_testing.ts";
import { NamespaceState } from "./namespace_state.ts";

function state(): NamespaceState {
  return new NamespaceState("ns", { heartbeatTtlMs: 2_000 });
}

Deno.test("namespace state notes when an executor joined the eligible set", () => {
  const s = state();
  putExecutor(s, { executorId: "a", seenAtMs: 1_000 });
  assert.equal(s.executor("a")?.activeSinceMs, 1_000);
  putExecutor(s, { executorId: "a", seenAtMs: 2_000 });
  assert.equal(s.executor("a")?.activeSinceMs, 1_000, "a heartbeat while alive keeps it");
  putExecutor(s, { executorId: "a", seenAtMs: 2_500, status: "DRAINING" });
  assert.equal(s.executor("a")?.activeSinceMs, undefined);
  putExecutor(s, { executorId: "a", seenAtMs: 3_000 });
  assert.equal(s.executor("a")?.activeSinceMs, 3_000, "ACTIVE again: joined again");
  putExecutor(s, { executorId: "a", seenAtMs: 9_000 });
  assert.equal(s.executor("a")?.activeSinceMs, 9_000, "back after going stale: joined again");
});

Deno.test("namespace state notes moves between executors, not placements", () => {
  const s = state();
  putExecutor(s, { executorId: "a" });
  putExecutor(s, { executorId: "b" });
  const assign = (assign: Record<string, string[]>, now: number, unassign: string[] = []) =>
    applyEvents(s, [{
      type: "assignment",
      seq: s.seq + 1,
      delta: { assign, unassign, remove: [] },
    }], now);
  assign({ a: ["0", "1"] }, 100);
  assert.equal(s.tables().movedAt.size, 0);
  assign({ b: ["1"] }, 200);
  assert.deepEqual([...s.tables().movedAt], [["1", 200]]);
  assign({}, 300, ["1"]);
  assert.equal(s.tables().movedAt.size, 0, "an unowned shard has no cooldown");
});
