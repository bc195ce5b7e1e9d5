import assert from "node:assert/strict";
import { NamespaceState } from "../../state/namespace_state.ts";
import { putExecutor, removeExecutor } from "../../state/_testing.ts";
import { describeReleases } from "./describe_change.ts";

Deno.test("releases name each losing executor with its reason", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  const add = (id: string, seenAtMs: number, status: "ACTIVE" | "DRAINING" = "ACTIVE") =>
    putExecutor(state, { executorId: id, status, seenAtMs });
  add("dead", -5_000);
  add("leaving", 0, "DRAINING");
  add("busy", 0);
  add("new", 0);
  state.apply({
    revision: 2,
    events: [{
      type: "assignment",
      seq: 1,
      delta: {
        assign: { dead: ["0", "1"], leaving: ["2"], busy: ["3", "4"], ghost: ["5"] },
        unassign: [],
        remove: [],
      },
    }],
  }, 0);
  removeExecutor(state, "ghost");
  const releases = describeReleases(state, {
    assign: { new: ["0", "1", "2", "3"], busy: ["4"] },
    unassign: ["5"],
    remove: [],
  }, 100);
  assert.deepEqual(releases, [
    { executorId: "dead", shards: 2, reason: "stale" },
    { executorId: "busy", shards: 1, reason: "rebalance" },
    { executorId: "ghost", shards: 1, reason: "gone" },
    { executorId: "leaving", shards: 1, reason: "draining" },
  ]);
});
