import assert from "node:assert/strict";
import { silentLogger } from "../core/logger.ts";
import type { AssignmentDelta } from "../core/types.ts";
import { NamespaceCache } from "../state/namespace_cache.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { NamespaceEvent, Store } from "../store/store.ts";
import { WatchFanout } from "./watch_fanout.ts";

const unusedStore = new Proxy({} as Store, {
  get: (_, name) => () => {
    throw new Error(`Unexpected store call: ${String(name)}`);
  },
});

/** Executors a (owns 0) and b (owns 1), heartbeat revision 1, at revision 5. */
function setup(hidden?: Map<string, number>) {
  const options = { heartbeatTtlMs: 1_000, logger: silentLogger };
  const state = new NamespaceState("ns", options);
  const cache = new NamespaceCache(unusedStore, "ns", { ...options, state });
  const stored = (id: string) => ({
    executorId: id,
    heartbeat: { status: "ACTIVE" as const, timestampMs: Date.now() },
    heartbeatRevision: 1,
    metadata: { addr: id },
    reports: new Map(),
  });
  state.load(
    {
      revision: 5,
      executors: new Map([["a", stored("a")], ["b", stored("b")]]),
      assignmentSeq: 1,
      owners: new Map([["0", "a"], ["1", "b"]]),
      assignedRevisions: new Map(),
      assignmentTimes: new Map(),
      drained: new Set(),
      executorDrains: new Map(),
      requested: new Map(),
      ...(hidden ? { hidden } : {}),
    },
    0,
    Date.now(),
  );
  cache.views.bump();
  const apply = (...events: NamespaceEvent[]) => {
    state.apply({ revision: state.revision + 1, events }, 0);
    cache.views.bump();
  };
  const commit = (delta: Partial<AssignmentDelta>) =>
    apply({
      type: "assignment",
      seq: cache.state.seq + 1,
      delta: { assign: {}, unassign: [], remove: [], ...delta },
    });
  return { cache, fanout: new WatchFanout(cache), apply, commit };
}

const ids = (fanout: WatchFanout) => fanout.current().executors.map((e) => e.executorId);

Deno.test("a hidden executor leaves pictures and deltas at the revision of the hide, and GetNamespaceState's list stays", () => {
  const { cache, fanout, commit } = setup();
  // The leader moves b's shard to a and hides b (stale, holding nothing) in one change.
  commit({ assign: { a: ["1"] }, hide: { b: 1 } });
  assert.deepEqual(ids(fanout), ["a"]);
  assert.deepEqual(fanout.current().executors[0]?.shards, ["0", "1"]);
  const delta = fanout.deltaSince(5);
  assert.deepEqual(delta?.removedExecutors, ["b"]);
  assert.deepEqual(delta?.owners, [{ shard: "1", owner: "a" }]);
  assert.ok(cache.state.executor("b") !== undefined, "the state (GetNamespaceState) still lists b");
  // Hiding again changes nothing a watcher sees.
  commit({ hide: { b: 1 } });
  assert.deepEqual(fanout.deltaSince(6)?.removedExecutors, []);
});

Deno.test("a hide judged on an older heartbeat is ignored; a heartbeat brings a hidden executor back", () => {
  const { fanout, apply, commit } = setup();
  commit({ unassign: ["1"], hide: { b: 0 } }); // b's record moved on since: not hidden
  assert.deepEqual(ids(fanout), ["a", "b"]);
  commit({ hide: { b: 1 } });
  assert.deepEqual(ids(fanout), ["a"]);
  const before = fanout.current().revision ?? 0;
  apply({ type: "metadata", executorId: "b", metadata: { addr: "b2" } }, {
    type: "heartbeat",
    executorId: "b",
    record: { status: "ACTIVE", timestampMs: 1 },
  });
  assert.deepEqual(ids(fanout), ["a", "b"]);
  assert.deepEqual(fanout.deltaSince(before)?.executors, [{
    executorId: "b",
    metadata: { addr: "b2" },
  }]);
  assert.deepEqual(fanout.deltaSince(before)?.removedExecutors, []);
});

Deno.test("hidden executors are read from a snapshot only while their heartbeat revision holds", () => {
  assert.deepEqual(ids(setup(new Map([["b", 1]])).fanout), ["a"]);
  assert.deepEqual(ids(setup(new Map([["b", 0]])).fanout), ["a", "b"]);
  const { fanout, apply } = setup(new Map([["b", 1]]));
  const before = fanout.current().revision ?? 0;
  apply({ type: "executor_removed", executorId: "b" });
  assert.deepEqual(fanout.deltaSince(before)?.removedExecutors, [], "already gone for watchers");
});
