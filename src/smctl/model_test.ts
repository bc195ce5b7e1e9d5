import assert from "node:assert/strict";
import type {
  ExecutorDrain__Output,
  InspectShardResponse__Output,
  NamespaceExecutorState__Output,
} from "../wire/proto.ts";
import {
  drainModel,
  executorDetailModel,
  executorModel,
  leaderModel,
  namespaceModel,
  shardModel,
  shortEnum,
} from "./model.ts";

const executor: NamespaceExecutorState__Output = {
  executorId: "a",
  status: "EXECUTOR_STATUS_DRAINING",
  lastHeartbeat: { seconds: "1700000000", nanos: 500_000_000 },
  metadata: { hostname: "worker-7" },
  assignedShards: [{
    shardKey: "3",
    assignmentStatus: "ASSIGNMENT_STATUS_READY",
    assignedStateModRevision: "42",
    shardLoad: 2.5,
    assignedAt: { seconds: "1700000000", nanos: 0 },
    notRunning: false,
    keyRange: null,
    topKeys: [],
    pinned: false,
  }],
  drained: true,
  drainedBy: ["id:a"],
  heartbeatAgeMs: "150",
  alive: true,
  liveness: "EXECUTOR_LIVENESS_ALIVE",
  unknownSince: null,
  shardCount: "1",
  totalLoad: 2.5,
  notRunningShards: "0",
};

Deno.test("executor models convert int64 strings, timestamps and enum names", () => {
  assert.deepEqual(executorModel(executor), {
    id: "a",
    status: "DRAINING",
    alive: true,
    liveness: "alive",
    unknownSince: null,
    heartbeatAgeMs: 150,
    lastHeartbeat: "2023-11-14T22:13:20.500Z",
    shardCount: 1,
    totalLoad: 2.5,
    drained: true,
    drainedBy: ["id:a"],
    metadata: { hostname: "worker-7" },
  });
  assert.deepEqual(executorDetailModel(executor).shards, [
    { key: "3", load: 2.5, assignedRevision: 42, assignedAt: "2023-11-14T22:13:20.000Z" },
  ]);
});

Deno.test("an executor's shard count is never below its listed shards", () => {
  assert.equal(executorModel({ ...executor, shardCount: "0" }).shardCount, 1);
});

Deno.test("drain models tell drains by id from drains by selector", () => {
  const base: ExecutorDrain__Output = {
    id: "id:a",
    executorId: "a",
    selector: {},
    reason: "INC-1",
    createdAt: null,
    matchedExecutorIds: ["a"],
  };
  assert.deepEqual(drainModel(base), {
    id: "id:a",
    kind: "id",
    executorId: "a",
    selector: null,
    reason: "INC-1",
    createdAt: null,
    matchedExecutorIds: ["a"],
  });
  const bySelector = drainModel({
    ...base,
    id: "selector:zone=b",
    executorId: "",
    selector: { zone: "b" },
  });
  assert.equal(bySelector.kind, "selector");
  assert.equal(bySelector.executorId, null);
  assert.deepEqual(bySelector.selector, { zone: "b" });
});

Deno.test("leader, namespace and shard models", () => {
  assert.deepEqual(
    leaderModel({
      namespace: "ns",
      instanceId: "",
      term: "0",
      since: null,
      unknownSince: null,
      instanceName: "",
      grpcAddress: "",
      httpAddress: "",
    }),
    {
      namespace: "ns",
      instanceId: null,
      term: 0,
      since: null,
      unknownSince: null,
      instanceName: null,
      grpcAddress: null,
      httpAddress: null,
    },
  );
  assert.deepEqual(
    namespaceModel({
      name: "ns",
      type: "fixed",
      mode: "onboarded",
      shardNum: "12",
      source: "file",
    }),
    { name: "ns", type: "fixed", mode: "onboarded", shardNum: 12, source: "file" },
  );
  const inspected: InspectShardResponse__Output = {
    owner: "a",
    namespace: "ns",
    metadata: {},
    shardLoad: 0,
    shardStatus: "SHARD_STATUS_INVALID",
    assignedRevision: "9",
    assignedAt: null,
    owners: [],
    notRunning: false,
    incomingOwner: "",
    preparingSince: null,
    incomingPrepared: false,
  };
  assert.deepEqual(shardModel("3", inspected), {
    namespace: "ns",
    shardKey: "3",
    owner: "a",
    metadata: {},
    load: 0,
    status: null,
    assignedRevision: 9,
    assignedAt: null,
  });
  assert.equal(shardModel("3", { ...inspected, shardStatus: "SHARD_STATUS_DONE" }).status, "DONE");
  const owners = ["a", "b", "c"].map((executorId) => ({ executorId, metadata: {} }));
  assert.deepEqual(shardModel("3", { ...inspected, owners }).owners, ["a", "b", "c"]);
  assert.equal("owners" in shardModel("3", { ...inspected, owners: owners.slice(0, 1) }), false);
  assert.equal(shortEnum("OTHER", "SHARD_STATUS_"), "OTHER");
  const handover = shardModel("3", {
    ...inspected,
    incomingOwner: "b",
    preparingSince: { seconds: "1767225600", nanos: 0 },
    incomingPrepared: true,
  });
  assert.deepEqual(handover.incoming, {
    executorId: "b",
    since: "2026-01-01T00:00:00.000Z",
    prepared: true,
  });
});
