import assert from "node:assert/strict";
import { NamespaceState } from "../state/namespace_state.ts";
import { putExecutor, putExecutorDrain, setDrained } from "../state/_testing.ts";
import { namespaceStats } from "./namespace_stats.ts";

Deno.test("namespace stats count executors by state and sum their loads", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  const executor = (id: string, status: "ACTIVE" | "DRAINING" | "UNKNOWN", seenAtMs: number) =>
    putExecutor(state, {
      executorId: id,
      status,
      seenAtMs,
      metadata: { host: id },
      reports: {
        [`${id}-1`]: { status: "READY", load: 2 },
        [`${id}-2`]: { status: "READY", load: 3 },
      },
    });
  executor("a", "ACTIVE", 900);
  executor("b", "DRAINING", 950);
  executor("c", "ACTIVE", 0); // stale at now = 1_500
  executor("d", "ACTIVE", 1_000);
  executor("u", "UNKNOWN", 1_100);
  putExecutorDrain(state, { id: "id:d", executorId: "d", reason: "", createdAtMs: 0 });
  state.apply({
    revision: 2,
    events: [{
      type: "assignment",
      seq: 1,
      delta: { assign: { a: ["a-1", "a-2"], c: ["c-1"], d: ["d-1"] }, unassign: [], remove: [] },
    }],
  }, 0);
  setDrained(state, "x");
  const stats = namespaceStats(state, { now: 1_500, wallNow: 0 });
  assert.deepEqual(stats, {
    executors: {
      active: 1,
      draining: 1,
      drained: 0,
      unknown_status: 1,
      unknown: 0,
      operator_drained: 1,
      stale: 1,
    },
    ownedShards: 4,
    totalShards: 5, // four owned, one drained
    unownedShards: 0,
    drainedShards: 1,
    quarantinedShards: 0,
    notRunningShards: 0,
    executorDrains: 1,
    maxHeartbeatAgeMs: 1_500,
    maxLoad: 5,
    meanLoad: 7 / 4,
  });
});

Deno.test("unowned shards are those of the namespace with no owner and no drain", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  putExecutor(state, { executorId: "a", status: "ACTIVE", seenAtMs: 0, metadata: {}, reports: {} });
  state.apply({
    revision: 2,
    events: [{
      type: "assignment",
      seq: 1,
      delta: { assign: { a: ["0", "1"] }, unassign: [], remove: [] },
    }],
  }, 0);
  setDrained(state, "2");
  setDrained(state, "1"); // drained but still owned until the next pass: counted once
  const stats = namespaceStats(state, { now: 0, wallNow: 0 }, { shardNum: 6 });
  assert.equal(stats.totalShards, 6);
  assert.equal(stats.unownedShards, 3); // "3", "4", "5"
  assert.equal(namespaceStats(state, { now: 0, wallNow: 0 }).totalShards, 3);
});
