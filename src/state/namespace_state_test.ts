import assert from "node:assert/strict";
import { reportsFrom } from "../core/shared_reports.ts";
import type { NamespaceEvent, NamespaceSnapshot, StoredExecutor } from "../store/store.ts";
import { NamespaceState } from "./namespace_state.ts";

const TTL = 1_000;
const WALL = 1_700_000_000_000;

function executor(id: string, timestampMs = WALL, status = "ACTIVE" as const): StoredExecutor {
  return {
    executorId: id,
    heartbeat: { status, timestampMs },
    heartbeatRevision: 3,
    metadata: { addr: `${id}:1` },
    reports: new Map(),
  };
}

function snapshot(over: Partial<NamespaceSnapshot> = {}): NamespaceSnapshot {
  return {
    revision: 10,
    executors: new Map([["a", executor("a")], ["b", executor("b")]]),
    assignmentSeq: 4,
    owners: new Map([["0", "a"], ["1", "b"], ["2", "a"]]),
    assignedRevisions: new Map([["0", 7], ["1", 8]]),
    assignmentTimes: new Map([[7, 1_000]]),
    drained: new Set(["9"]),
    executorDrains: new Map(),
    requested: new Map([["eph", 9]]),
    ...over,
  };
}

function loaded(now = 0): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  state.load(snapshot(), now, WALL);
  return state;
}

function heartbeat(executorId: string, status: "ACTIVE" | "DRAINING" = "ACTIVE"): NamespaceEvent {
  return { type: "heartbeat", executorId, record: { status, timestampMs: WALL + 5 } };
}

Deno.test("namespace state load copies a snapshot, indexing owners by executor", () => {
  const state = loaded(50);
  assert.equal(state.revision, 10);
  assert.equal(state.seq, 4);
  assert.deepEqual([...state.shardsOf("a")], ["0", "2"]);
  assert.deepEqual([...state.shardsOf("b")], ["1"]);
  assert.deepEqual([...state.shardsOf("nobody")], []);
  assert.equal(state.fencingToken("0"), 7);
  assert.equal(state.fencingToken("2"), 10, "missing revisions default to the snapshot's");
  assert.deepEqual([...state.drained()], ["9"]);
  assert.deepEqual([...state.tables().requested], [["eph", 9]]);
  const a = state.executor("a")!;
  assert.equal(a.seenAtMs, 50, "executors are taken as seen at load time");
  assert.equal(a.lastHeartbeatMs, WALL);
  assert.equal(a.status, "ACTIVE");
});

Deno.test("namespace state load replaces everything from an earlier load", () => {
  const state = loaded();
  state.load(snapshot({ owners: new Map([["5", "b"]]), drained: new Set() }), 0, WALL);
  assert.deepEqual([...state.owned()], [["5", "b"]]);
  assert.deepEqual([...state.shardsOf("a")], []);
  assert.equal(state.drainedCount, 0);
});

Deno.test("namespace state isAlive holds up to the TTL after the executor was seen", () => {
  const state = loaded(100);
  const a = state.executor("a")!;
  assert.equal(state.isAlive(a, 100 + TTL), true);
  assert.equal(state.isAlive(a, 100 + TTL + 1), false);
});

Deno.test("namespace state gives executors the namespace's silence again after a load", () => {
  // A restart of the service: nothing was heard for 1.5 s, and the
  // executors' clients back off while it is down, so their first heartbeat
  // can come well after it listens again.
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  const executors = new Map<string, StoredExecutor>([
    ["latest", executor("latest", WALL - 1_500)],
    ["earlier", executor("earlier", WALL - 1_500 - TTL)],
    ["gone", executor("gone", WALL - 1_500 - TTL - 1)],
  ]);
  state.load(snapshot({ executors }), 100, WALL);
  const at = (id: string, now: number) => state.isAlive(state.executor(id)!, now);
  assert.equal(at("latest", 100 + TTL + 1_500), true);
  assert.equal(at("latest", 100 + TTL + 1_501), false, "one TTL and the silence");
  assert.equal(at("earlier", 100 + TTL + 1_500), true, "alive when the silence began");
  assert.equal(at("gone", 100 + TTL), true);
  assert.equal(at("gone", 100 + TTL + 1), false, "already stale then: one TTL, as before");
  assert.equal(state.livenessDeadline(100 + TTL + 1, 60_000), 100 + TTL + 1_500);

  // Heard again: the grace of the load is over, the TTL counts from now.
  state.apply({ revision: 11, events: [heartbeat("latest")] }, 200);
  assert.equal(at("latest", 200 + TTL), true);
  assert.equal(at("latest", 200 + TTL + 1), false);
});

Deno.test("namespace state gives no extra grace when the namespace was heard just now", () => {
  const state = loaded(100);
  assert.equal(state.executor("a")!.graceUntilMs, undefined);
  assert.equal(state.isAlive(state.executor("a")!, 100 + TTL + 1), false);
});

Deno.test("namespace state treats an ancient heartbeat on load as stale at once", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  const ancient = WALL - 10 * TTL - 1;
  const { heartbeat: _, ...silent } = executor("none");
  const executors = new Map<string, StoredExecutor>([
    ["old", executor("old", ancient)],
    ["recent", executor("recent", WALL - 10 * TTL)],
    ["none", silent],
  ]);
  state.load(snapshot({ executors }), 500, WALL);
  assert.equal(state.isAlive(state.executor("old")!, 500), false);
  assert.equal(state.isAlive(state.executor("recent")!, 500), true);
  const none = state.executor("none")!;
  assert.equal(state.isAlive(none, 500), false);
  assert.equal(none.status, "DRAINED", "an executor without a heartbeat gets nothing new");
});

Deno.test("namespace state heartbeat of a new executor asks for a rebalance and a new view", () => {
  const state = loaded();
  const change = state.apply({ revision: 11, events: [heartbeat("c")] }, 20);
  assert.deepEqual(change, { rebalance: true, view: true, resync: false });
  const c = state.executor("c")!;
  assert.equal(c.seenAtMs, 20);
  assert.equal(c.heartbeatRevision, 11);
  assert.equal(c.lastHeartbeatMs, WALL + 5);
  assert.equal(state.revision, 11);
});

Deno.test("namespace state same-status heartbeat of a live executor changes nothing visible", () => {
  const state = loaded();
  const change = state.apply({ revision: 11, events: [heartbeat("a")] }, TTL);
  assert.deepEqual(change, { rebalance: false, view: false, resync: false });
  assert.equal(state.executor("a")!.seenAtMs, TTL, "but liveness is refreshed");
});

Deno.test("namespace state status change or a stale executor's heartbeat asks for a rebalance", () => {
  const state = loaded();
  assert.equal(
    state.apply({ revision: 11, events: [heartbeat("a", "DRAINING")] }, 1).rebalance,
    true,
  );
  assert.equal(state.executor("a")!.status, "DRAINING");
  const stale = state.apply({ revision: 12, events: [heartbeat("b")] }, TTL + 1);
  assert.deepEqual(stale, { rebalance: true, view: true, resync: false });
  assert.equal(state.isAlive(state.executor("b")!, TTL + 1), true);
});

Deno.test("namespace state assignment deltas update owners, byExecutor and revisions", () => {
  const state = loaded();
  const change = state.apply({
    revision: 12,
    events: [{
      type: "assignment",
      seq: 5,
      delta: { assign: { b: ["0", "3"] }, unassign: ["2"], remove: ["1"] },
    }],
  }, 0);
  assert.deepEqual(change, { rebalance: false, view: true, resync: false });
  assert.equal(state.seq, 5);
  assert.deepEqual([...state.owned()].sort(), [["0", "b"], ["3", "b"]]);
  assert.equal(state.tables().byExecutor.has("a"), false, "an owner left with nothing is dropped");
  assert.deepEqual([...state.shardsOf("b")].sort(), ["0", "3"]);
  assert.deepEqual([...state.tables().assignedRevisions].sort(), [["0", 12], ["3", 12]]);
});

Deno.test("namespace state drained and requested events update their sets", () => {
  const state = loaded();
  const drained = state.apply({
    revision: 13,
    events: [{ type: "drained", shardKey: "4", drained: true }, {
      type: "drained",
      shardKey: "9",
      drained: false,
    }],
  }, 0);
  assert.equal(drained.rebalance, true);
  assert.deepEqual([...state.drained()], ["4"]);
  const asked = state.apply({
    revision: 14,
    events: [{ type: "requested", shardKey: "new", requested: true }],
  }, 0);
  assert.equal(asked.rebalance, true);
  assert.equal(state.requestRevision("new"), 14);
  const cleared = state.apply({
    revision: 15,
    events: [{ type: "requested", shardKey: "eph", requested: false }],
  }, 0);
  assert.equal(cleared.rebalance, false);
  assert.equal(state.requestRevision("eph") !== undefined, false);
});

Deno.test("namespace state reports rebalance only when a shard is DONE", () => {
  const state = loaded();
  const ready = {
    type: "reports",
    executorId: "a",
    reports: reportsFrom({ x: { status: "READY", load: 1 } }),
  };
  assert.equal(
    state.apply({ revision: 11, events: [ready as NamespaceEvent] }, 0).rebalance,
    false,
  );
  assert.deepEqual(Object.fromEntries(state.executor("a")!.reports), {
    x: { status: "READY", load: 1 },
  });
  const done = {
    type: "reports",
    executorId: "a",
    reports: reportsFrom({ x: { status: "DONE", load: 0 } }),
  };
  assert.equal(state.apply({ revision: 12, events: [done as NamespaceEvent] }, 0).rebalance, true);
});

Deno.test("namespace state removal, metadata, leader and resync events", () => {
  const state = loaded();
  const meta = state.apply({
    revision: 11,
    events: [{ type: "metadata", executorId: "a", metadata: { addr: "new" } }],
  }, 0);
  assert.equal(meta.view, true);
  assert.deepEqual(state.executor("a")!.metadata, { addr: "new" });
  const removed = state.apply({
    revision: 12,
    events: [{ type: "executor_removed", executorId: "b" }],
  }, 0);
  assert.deepEqual(removed, { rebalance: true, view: true, resync: false });
  assert.equal(state.executor("b") !== undefined, false);
  const claim = { term: 3, instanceId: "i1", sinceMs: WALL };
  state.apply({ revision: 13, events: [{ type: "leader", claim }] }, 0);
  assert.deepEqual(state.leader, { claim, revision: 13 });
  const resync = state.apply(
    { revision: 14, events: [{ type: "resync", reason: "compacted" }] },
    0,
  );
  assert.equal(resync.resync, true);
  state.apply({ revision: 9, events: [] }, 0);
  assert.equal(state.revision, 14, "the revision never goes back");
});

Deno.test("namespace state follows executor drains and asks for a rebalance", () => {
  const state = loaded();
  const drain = { id: "selector:addr=a:1", selector: { addr: "a:1" }, reason: "", createdAtMs: 1 };
  const made = state.apply({
    revision: 11,
    events: [{ type: "executor_drain", id: drain.id, drain }],
  }, 0);
  assert.equal(made.rebalance, true);
  assert.equal(state.isExecutorDrained(state.executor("a")!), true);
  assert.equal(state.isExecutorDrained(state.executor("b")!), false);
  assert.deepEqual(state.drainsOf("a", { addr: "a:1" }).map((d) => d.id), [drain.id]);
  const moved = state.apply({
    revision: 12,
    events: [{ type: "metadata", executorId: "b", metadata: { addr: "a:1" } }],
  }, 0);
  assert.equal(moved.rebalance, true, "new metadata may match a selector drain");
  state.apply({ revision: 13, events: [{ type: "executor_drain", id: drain.id }] }, 0);
  assert.equal(state.isExecutorDrained(state.executor("a")!), false);
});

Deno.test("namespace state keeps commit times of assignment changes", () => {
  const state = loaded();
  assert.equal(state.assignedAtMs("0"), 1_000, "from the snapshot");
  state.apply({
    revision: 20,
    events: [{
      type: "assignment",
      seq: 5,
      delta: { assign: { b: ["0"] }, unassign: [], remove: [], atMs: 2_000 },
    }],
  }, 0);
  assert.equal(state.assignedAtMs("0"), 2_000);
  assert.equal(state.fencingToken("0"), 20);
  assert.equal(state.assignedAtMs("2"), undefined, "unknown without a recorded time");
});
