import assert from "node:assert/strict";
import type { NamespaceSnapshot } from "../store/store.ts";
import { NamespaceState } from "./namespace_state.ts";

const WALL = 1_700_000_000_000;

function snapshot(over: Partial<NamespaceSnapshot> = {}): NamespaceSnapshot {
  return {
    revision: 10,
    executors: new Map([["a", {
      executorId: "a",
      heartbeat: { status: "ACTIVE", timestampMs: WALL - 30_000 },
      heartbeatRevision: 3,
      metadata: {},
      reports: new Map(),
    }]]),
    assignmentSeq: 1,
    owners: new Map([["0", "a"], ["1", "a"]]),
    assignedRevisions: new Map([["0", 5], ["1", 5]]),
    assignmentTimes: new Map(),
    releasing: new Map([["1", 9], ["gone", 9]]),
    drained: new Set(),
    executorDrains: new Map(),
    requested: new Map(),
    ...over,
  };
}

Deno.test("releasing shards load, follow assignment changes and keep their token", () => {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  state.load(snapshot(), 0, WALL);
  assert.deepEqual(
    state.tables().releasing,
    new Map([["1", 9]]),
    "only owned shards can be releasing",
  );
  const released = state.apply({
    revision: 11,
    events: [{
      type: "assignment",
      seq: 2,
      delta: { assign: {}, unassign: [], remove: [], release: ["0"] },
    }],
  }, 1);
  assert.ok(released.view);
  assert.deepEqual(state.tables().releasing, new Map([["1", 9], ["0", 11]]));
  assert.equal(state.ownerOf("0"), "a");
  assert.equal(state.fencingToken("0"), 5, "the owner's token is unchanged");
  const hb = state.apply({
    revision: 12,
    events: [{
      type: "heartbeat",
      executorId: "a",
      record: { status: "ACTIVE", timestampMs: WALL },
    }],
  }, 2);
  assert.ok(hb.rebalance, "the owner of a releasing shard heartbeated: a pass may confirm it");
  state.apply({
    revision: 13,
    events: [{
      type: "assignment",
      seq: 3,
      delta: { assign: { b: ["0"] }, unassign: ["1"], remove: [] },
    }],
  }, 3);
  assert.deepEqual(state.tables().releasing, new Map());
  assert.equal(state.fencingToken("0"), 13, "the new owner's token is larger");
});

Deno.test("an exclusive namespace's executor is not taken as long gone before twice its lease", () => {
  const plain = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  plain.load(snapshot(), 100, WALL);
  assert.equal(plain.executor("a")!.seenAtMs, -Infinity, "30 s > 10 × TTL: long gone");
  const leased = new NamespaceState("ns", { heartbeatTtlMs: 1_000, ownershipLeaseMs: 15_000 });
  leased.load(snapshot(), 100, WALL);
  assert.equal(leased.executor("a")!.seenAtMs, 100, "counted as seen at load");
});
