import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import {
  executorService,
  type ForceResetNamespaceResponse__Output,
  type GetNamespaceStateResponse__Output,
  type GetShardOwnerResponse__Output,
  type HeartbeatRequest__Output,
  type HeartbeatResponse__Output,
  ShardDistributorAPIClient,
  type ShardDistributorAPIHandlers,
  ShardDistributorExecutorAPIClient,
  type ShardDistributorExecutorAPIHandlers,
  shardDistributorService,
} from "./proto.ts";

/** Larger than 2^53, so it only survives the trip as a string. */
const BIG_INT64 = "9007199254740993";

const apiHandlers: Pick<
  ShardDistributorAPIHandlers,
  "GetShardOwner" | "GetNamespaceState" | "ForceResetNamespace"
> = {
  GetShardOwner(call, callback) {
    const { shardKey, namespace } = call.request;
    callback(null, {
      owner: `executor-for-${shardKey}`,
      namespace,
      metadata: { address: "10.0.0.7:7933", requestedShardKey: shardKey },
    });
  },
  GetNamespaceState(call, callback) {
    callback(null, {
      namespace: call.request.namespace,
      executors: [{
        executorId: "exec-1",
        status: "EXECUTOR_STATUS_DRAINING",
        lastHeartbeat: { seconds: 1_700_000_000, nanos: 5 },
        assignedShards: [{
          shardKey: "7",
          assignmentStatus: "ASSIGNMENT_STATUS_READY",
          assignedStateModRevision: BIG_INT64,
          shardLoad: 0,
          assignedAt: null,
        }],
        drained: false,
        drainedBy: [],
        heartbeatAgeMs: "0",
        alive: false,
        shardCount: "0",
        totalLoad: 0,
      }, {
        // Everything unset: the client must still see every field.
        executorId: "exec-2",
      }],
    });
  },
  ForceResetNamespace(_call, callback) {
    callback(null, { deletedKeys: BIG_INT64 });
  },
};

const received: HeartbeatRequest__Output[] = [];
const executorHandlers: Pick<ShardDistributorExecutorAPIHandlers, "Heartbeat"> = {
  Heartbeat(call, callback) {
    received.push(call.request);
    const shardAssignments = Object.fromEntries(
      Object.keys(call.request.shardStatusReports).map((key) => [
        key,
        { status: "ASSIGNMENT_STATUS_READY" as const },
      ]),
    );
    callback(null, { shardAssignments, migrationMode: "MIGRATION_MODE_ONBOARDED" });
  },
};

interface Fixture {
  api: ShardDistributorAPIClient;
  executor: ShardDistributorExecutorAPIClient;
}

/** Starts a real server on a free loopback port, runs `fn`, then stops both sides. */
async function withServer(fn: (fixture: Fixture) => Promise<void>): Promise<void> {
  const server = new grpc.Server();
  server.addService(shardDistributorService, apiHandlers);
  server.addService(executorService, executorHandlers);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (error, port) => error ? reject(error) : resolve(port),
    )
  );
  const address = `127.0.0.1:${port}`;
  const api = new ShardDistributorAPIClient(address, grpc.credentials.createInsecure());
  const executor = new ShardDistributorExecutorAPIClient(
    address,
    grpc.credentials.createInsecure(),
  );
  try {
    await fn({ api, executor });
  } finally {
    api.close();
    executor.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  }
}

/** Adapts a unary call's callback to a promise. */
function settle<T>(
  start: (callback: (error: grpc.ServiceError | null, value?: T) => void) => void,
): Promise<T> {
  return new Promise((resolve, reject) =>
    start((error, value) => {
      if (error) reject(error);
      else if (value === undefined) reject(new Error("Call returned neither error nor value"));
      else resolve(value);
    })
  );
}

Deno.test("GetShardOwner round-trips camelCase fields and a string map", async () => {
  await withServer(async ({ api }) => {
    const response = await settle<GetShardOwnerResponse__Output>((done) =>
      api.getShardOwner({ shardKey: "42", namespace: "orders" }, done)
    );
    assert.deepEqual(response, {
      owner: "executor-for-42",
      namespace: "orders",
      metadata: { address: "10.0.0.7:7933", requestedShardKey: "42" },
      owners: [],
      sliceKey: "",
      keyRange: null,
    });
  });
});

Deno.test("Heartbeat carries enums as names and maps of messages both ways", async () => {
  received.length = 0;
  await withServer(async ({ executor }) => {
    const response = await settle<HeartbeatResponse__Output>((done) =>
      executor.heartbeat({
        namespace: "orders",
        executorId: "exec-1",
        status: "EXECUTOR_STATUS_ACTIVE",
        shardStatusReports: {
          "1": { status: "SHARD_STATUS_READY", shardLoad: 0.25 },
          // Numbers are accepted when sending and arrive as names.
          "2": { status: 2, shardLoad: 1.5 },
        },
        metadata: { address: "10.0.0.7:7933" },
      }, done)
    );
    assert.deepEqual(received, [{
      namespace: "orders",
      executorId: "exec-1",
      status: "EXECUTOR_STATUS_ACTIVE",
      shardStatusReports: {
        "1": { status: "SHARD_STATUS_READY", shardLoad: 0.25, failedStarts: 0, topKeys: [] },
        "2": { status: "SHARD_STATUS_DONE", shardLoad: 1.5, failedStarts: 0, topKeys: [] },
      },
      metadata: { address: "10.0.0.7:7933" },
      appliedRevision: "0",
      warmHandover: false,
      incarnation: "",
    }]);
    assert.deepEqual(response, {
      shardAssignments: {
        "1": { status: "ASSIGNMENT_STATUS_READY", fencingToken: "0", keyRange: null },
        "2": { status: "ASSIGNMENT_STATUS_READY", fencingToken: "0", keyRange: null },
      },
      migrationMode: "MIGRATION_MODE_ONBOARDED",
      // Fields added later arrive with their proto3 defaults when a server does not set them.
      ownershipMode: "OWNERSHIP_MODE_INVALID",
      ownershipLeaseMs: "0",
      revision: "0",
      quarantinedShards: [],
    });
  });
});

Deno.test("int64 fields arrive as exact decimal strings", async () => {
  await withServer(async ({ api }) => {
    const response = await settle<ForceResetNamespaceResponse__Output>((done) =>
      api.forceResetNamespace({ namespace: "orders" }, done)
    );
    assert.equal(typeof response.deletedKeys, "string");
    assert.equal(response.deletedKeys, BIG_INT64);
  });
});

Deno.test("received messages have every field, with defaults for unset ones", async () => {
  await withServer(async ({ api }) => {
    const response = await settle<GetNamespaceStateResponse__Output>((done) =>
      api.getNamespaceState({ namespace: "orders" }, done)
    );
    assert.deepEqual(response, {
      namespace: "orders",
      executors: [{
        executorId: "exec-1",
        status: "EXECUTOR_STATUS_DRAINING",
        lastHeartbeat: { seconds: "1700000000", nanos: 5 },
        metadata: {},
        assignedShards: [{
          shardKey: "7",
          assignmentStatus: "ASSIGNMENT_STATUS_READY",
          assignedStateModRevision: BIG_INT64,
          shardLoad: 0,
          assignedAt: null,
          notRunning: false,
          keyRange: null,
          topKeys: [],
          pinned: false,
        }],
        drained: false,
        drainedBy: [],
        heartbeatAgeMs: "0",
        alive: false,
        shardCount: "0",
        totalLoad: 0,
        liveness: "EXECUTOR_LIVENESS_INVALID",
        unknownSince: null,
        notRunningShards: "0",
      }, {
        executorId: "exec-2",
        status: "EXECUTOR_STATUS_INVALID",
        lastHeartbeat: null,
        metadata: {},
        assignedShards: [],
        drained: false,
        drainedBy: [],
        heartbeatAgeMs: "0",
        alive: false,
        shardCount: "0",
        totalLoad: 0,
        liveness: "EXECUTOR_LIVENESS_INVALID",
        unknownSince: null,
        notRunningShards: "0",
      }],
      shardMoves: null,
    });
  });
});

Deno.test("an RPC the server does not implement fails with UNIMPLEMENTED", async () => {
  await withServer(async ({ api }) => {
    await assert.rejects(
      settle((done) => api.inspectShard({ shardKey: "1", namespace: "orders" }, done)),
      (error: grpc.ServiceError) => error.code === grpc.status.UNIMPLEMENTED,
    );
  });
});
