import assert from "node:assert/strict";
import type { ShardReport } from "../core/types.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import { applyEvents, putExecutor } from "../state/_testing.ts";
import { executorState, inspectShard } from "./inspection.ts";
import { namespaceStats } from "./namespace_stats.ts";
import { type HeardReportView, notRunningShards, type RunningEvidence } from "./not_running.ts";
import type { RoutedNamespace } from "./routed_namespace.ts";

const READY: ShardReport = { status: "READY", load: 1 };
const NOT_RUNNING: ShardReport = { status: "NOT_RUNNING", load: 0 };

/** e1 owns shards 0..3, assigned at revision 2, its record (applied 2) seen at `seenAtMs`. */
function setup(reports: Record<string, ShardReport>, seenAtMs = 0, appliedRevision = 2) {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 2_000, ownershipLeaseMs: 2_000 });
  applyEvents(
    state,
    [{
      type: "assignment",
      seq: 1,
      delta: { assign: { e1: ["0", "1", "2", "3"] }, unassign: [], remove: [] },
    }],
    0,
    2,
  );
  putExecutor(state, { executorId: "e1", seenAtMs, appliedRevision, reports });
  return state;
}

function evidence(heard?: HeardReportView): RunningEvidence {
  return { heard: () => heard, heartbeatTtlMs: 2_000 };
}

const at = (now: number) => ({ now, wallNow: now });

Deno.test("shards reported NOT_RUNNING or not reported at all are owned but not running", () => {
  const state = setup({ "0": READY, "1": NOT_RUNNING, "2": { status: "DONE", load: 0 } });
  const e = state.executor("e1")!;
  assert.deepEqual(notRunningShards(state, e, at(100), evidence()), ["1", "3"]);
  const stats = namespaceStats(state, at(100), { shardNum: 4, running: evidence() });
  assert.equal(stats.notRunningShards, 2);
  const view = executorState(state, "e1", at(100), evidence());
  assert.equal(view.notRunningShards, 2);
  assert.deepEqual(view.assignedShards.filter((s) => s.notRunning).map((s) => s.shardKey), [
    "1",
    "3",
  ]);
});

Deno.test("available namespaces (no evidence) never count shards as not running", () => {
  const state = setup({});
  assert.deepEqual(notRunningShards(state, state.executor("e1")!, at(0), undefined), []);
  assert.equal(namespaceStats(state, at(0)).notRunningShards, 0);
  assert.equal(executorState(state, "e1", at(0)).notRunningShards, undefined);
});

Deno.test("a client that never sends applied_revision is never judged (independent clients)", () => {
  const state = setup({}, 0, 0);
  assert.deepEqual(notRunningShards(state, state.executor("e1")!, at(0), evidence()), []);
});

Deno.test("a shard assigned after the answer its owner acted on is not counted yet", () => {
  const state = setup({ "0": READY, "1": READY, "2": READY, "3": READY });
  applyEvents(
    state,
    [{
      type: "assignment",
      seq: 2,
      delta: { assign: { e1: ["4"] }, unassign: [], remove: [] },
    }],
    0,
    9,
  );
  const e = state.executor("e1")!;
  assert.deepEqual(notRunningShards(state, e, at(0), evidence()), [], "4 is not known to e1 yet");
  const heard = { reports: e.reports, appliedRevision: 9, heardAtMs: 50 };
  assert.deepEqual(notRunningShards(state, e, at(60), evidence(heard)), ["4"]);
});

Deno.test("what the executor sent to this instance counts before it is recorded (store stall)", () => {
  const state = setup({ "0": READY, "1": READY, "2": READY, "3": READY }, 1_000);
  const e = state.executor("e1")!;
  // Its processors stopped on their lease; its heartbeats reach this instance, not the store.
  const heard = { reports: new Map(), appliedRevision: 2, heardAtMs: 2_500 };
  assert.deepEqual(notRunningShards(state, e, at(2_600), evidence(heard)), ["0", "1", "2", "3"]);
  // The store is lost: liveness from the store is unknown, the heard heartbeat still vouches.
  const lost = { ...at(2_600), storeLostSince: { now: 1_200, wallMs: 1_200 } };
  assert.deepEqual(notRunningShards(state, e, lost, evidence(heard)).length, 4);
  const stats = namespaceStats(state, lost, { running: evidence(heard) });
  assert.equal(stats.notRunningShards, 4);
  // An older heard report loses to a newer record.
  const older = { reports: new Map(), appliedRevision: 2, heardAtMs: 900 };
  assert.deepEqual(notRunningShards(state, e, at(1_100), evidence(older)), []);
});

Deno.test("a stale owner's shards are not counted as not running (they are its loss)", () => {
  const state = setup({}, 0);
  assert.deepEqual(notRunningShards(state, state.executor("e1")!, at(5_000), evidence()), []);
  const heard = { reports: new Map(), appliedRevision: 2, heardAtMs: 4_000 };
  assert.equal(
    notRunningShards(state, state.executor("e1")!, at(5_000), evidence(heard)).length,
    4,
    "heard within the TTL: live",
  );
});

Deno.test("shards being released (a handover) are not counted", () => {
  const state = setup({ "0": READY, "1": READY, "2": READY });
  assert.deepEqual(notRunningShards(state, state.executor("e1")!, at(0), evidence()), ["3"]);
  applyEvents(
    state,
    [{
      type: "assignment",
      seq: 2,
      delta: { assign: {}, unassign: [], remove: [], release: ["3"] },
    }],
    0,
    3,
  );
  assert.deepEqual(notRunningShards(state, state.executor("e1")!, at(0), evidence()), []);
});

Deno.test("inspect shard says whether its owner runs it", () => {
  const state = setup({ "0": READY });
  const runtime = {
    cache: { state },
    policy: { keys: { kind: "fixed", shardNum: 4 } },
  } as unknown as RoutedNamespace;
  const running = { evidence: evidence(), time: at(0) };
  assert.equal(inspectShard(runtime, "0", running).notRunning, undefined);
  assert.equal(inspectShard(runtime, "1", running).notRunning, true);
  assert.equal(inspectShard(runtime, "1").notRunning, undefined);
});
