import assert from "node:assert/strict";
import {
  enumValue,
  toExecutorDrain,
  toExecutorState,
  toInspectShardResponse,
  toNamespaceLeader,
  toTimestamp,
  toWatchResponse,
} from "./convert.ts";

Deno.test("toTimestamp splits milliseconds into seconds as a string and nanos", () => {
  assert.deepEqual(toTimestamp(0), { seconds: "0", nanos: 0 });
  assert.deepEqual(toTimestamp(1_700_000_000_123), { seconds: "1700000000", nanos: 123_000_000 });
  assert.deepEqual(toTimestamp(1_500.25), { seconds: "1", nanos: 500_250_000 });
});

Deno.test("toTimestamp keeps nanos non-negative before the epoch", () => {
  assert.deepEqual(toTimestamp(-1), { seconds: "-1", nanos: 999_000_000 });
  assert.deepEqual(toTimestamp(-1_000), { seconds: "-1", nanos: 0 });
});

Deno.test("toExecutorState prefixes enums and writes revisions as strings", () => {
  const metadata = { addr: "10.0.0.1:7000" };
  const state = toExecutorState({
    executorId: "e1",
    status: "DRAINING",
    lastHeartbeatMs: 2_000,
    metadata,
    assignedShards: [
      { shardKey: "3", assignedRevision: 123_456_789_012, load: 0.5, assignedAtMs: 1_500 },
      { shardKey: "a", assignedRevision: 12, load: 1 },
    ],
    drainedBy: ["id:e1"],
    heartbeatAgeMs: 250,
    alive: true,
    liveness: "alive",
    totalLoad: 1.5,
  });
  assert.deepEqual(state, {
    executorId: "e1",
    status: "EXECUTOR_STATUS_DRAINING",
    lastHeartbeat: { seconds: "2", nanos: 0 },
    metadata: { addr: "10.0.0.1:7000" },
    assignedShards: [
      {
        shardKey: "3",
        assignmentStatus: "ASSIGNMENT_STATUS_READY",
        assignedStateModRevision: String(123_456_789_012),
        shardLoad: 0.5,
        assignedAt: { seconds: "1", nanos: 500_000_000 },
      },
      {
        shardKey: "a",
        assignmentStatus: "ASSIGNMENT_STATUS_READY",
        assignedStateModRevision: "12",
        shardLoad: 1,
      },
    ],
    drained: true,
    drainedBy: ["id:e1"],
    heartbeatAgeMs: "250",
    alive: true,
    shardCount: "2",
    totalLoad: 1.5,
    liveness: "EXECUTOR_LIVENESS_ALIVE",
  });
  assert.notEqual(state.metadata, metadata, "metadata is copied");
});

Deno.test("toExecutorDrain sets either the id or the selector", () => {
  const drain = { id: "selector:h=w7", selector: { h: "w7" }, reason: "disk", createdAtMs: 2_000 };
  assert.deepEqual(toExecutorDrain({ drain, matched: ["e1"] }), {
    id: "selector:h=w7",
    selector: { h: "w7" },
    reason: "disk",
    createdAt: { seconds: "2", nanos: 0 },
    matchedExecutorIds: ["e1"],
  });
  const byId = { id: "id:e2", executorId: "e2", reason: "", createdAtMs: 0 };
  assert.equal(toExecutorDrain({ drain: byId, matched: [] }).executorId, "e2");
  assert.equal(toExecutorDrain({ drain: byId, matched: [] }).selector, undefined);
});

Deno.test("toNamespaceLeader leaves an unled namespace's instance empty", () => {
  assert.deepEqual(toNamespaceLeader({ namespace: "a" }), {
    namespace: "a",
    instanceId: "",
    term: "0",
    instanceName: "",
    grpcAddress: "",
    httpAddress: "",
  });
  assert.deepEqual(
    toNamespaceLeader({ namespace: "a", instanceId: "i", term: 9, sinceMs: 1_000 }),
    {
      namespace: "a",
      instanceId: "i",
      term: "9",
      since: { seconds: "1", nanos: 0 },
      instanceName: "",
      grpcAddress: "",
      httpAddress: "",
    },
  );
});

Deno.test("toInspectShardResponse names an unreported status INVALID", () => {
  const owners = [{ executorId: "e", metadata: {} }];
  const base = { namespace: "n", owner: "e", metadata: {}, owners, load: 0, assignedRevision: 4 };
  assert.deepEqual(toInspectShardResponse(base), {
    owner: "e",
    namespace: "n",
    metadata: {},
    shardLoad: 0,
    shardStatus: "SHARD_STATUS_INVALID",
    assignedRevision: "4",
    owners: [{ executorId: "e", metadata: {} }],
  });
  assert.equal(
    toInspectShardResponse({ ...base, status: "DONE" }).shardStatus,
    "SHARD_STATUS_DONE",
  );
});

Deno.test("toInspectShardResponse lists every owner of a replicated shard, primary first", () => {
  const owners = [{ executorId: "b", metadata: { zone: "z2" } }, { executorId: "a", metadata: {} }];
  const view = { namespace: "n", owner: "b", metadata: {}, owners, load: 0, assignedRevision: 4 };
  assert.deepEqual(toInspectShardResponse(view).owners, [
    { executorId: "b", metadata: { zone: "z2" } },
    { executorId: "a", metadata: {} },
  ]);
});

Deno.test("toWatchResponse sends the owner set of a replicated shard in a delta", () => {
  const response = toWatchResponse({
    kind: "delta",
    fromRevision: 1,
    revision: 2,
    executors: [],
    owners: [{ shard: "s", owner: "b", owners: ["b", "a"] }, { shard: "t", owner: "c" }],
    removedExecutors: [],
  });
  assert.deepEqual(response.ownerChanges, [
    { shardKey: "s", executorId: "b", executorIds: ["b", "a"] },
    { shardKey: "t", executorId: "c" },
  ]);
});

Deno.test("toWatchResponse lists executors with their shards", () => {
  assert.deepEqual(
    toWatchResponse({
      version: 3,
      executors: [{ executorId: "e1", metadata: { a: "b" }, shards: ["0", "1"] }],
    }),
    {
      executors: [{
        executorId: "e1",
        metadata: { a: "b" },
        shards: [{ shardKey: "0" }, { shardKey: "1" }],
      }],
      revision: "0",
    },
  );
});

Deno.test("toWatchResponse writes a delta as metadata upserts, owner changes and removals", () => {
  assert.deepEqual(
    toWatchResponse({
      kind: "delta",
      fromRevision: 4,
      revision: 9,
      executors: [{ executorId: "e2", metadata: { a: "c" } }],
      owners: [{ shard: "1", owner: "e2" }, { shard: "2", owner: undefined }],
      removedExecutors: ["e1"],
    }),
    {
      executors: [{ executorId: "e2", metadata: { a: "c" }, shards: [] }],
      revision: "9",
      isDelta: true,
      ownerChanges: [{ shardKey: "1", executorId: "e2" }, { shardKey: "2", executorId: "" }],
      removedExecutors: ["e1"],
    },
  );
});

Deno.test("enumValue passes names and unknown numbers through", () => {
  assert.equal(enumValue("EXECUTOR_STATUS_ACTIVE"), "EXECUTOR_STATUS_ACTIVE");
  assert.equal(enumValue(7), 7);
  assert.equal(enumValue(undefined), "undefined");
});
