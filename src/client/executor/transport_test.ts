import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import {
  executorService,
  type HeartbeatRequest__Output,
  shardDistributorService,
} from "../../wire/proto.ts";
import { grpcHeartbeatTransport } from "./transport.ts";
import type { ShardManagerError } from "../common/errors.ts";

async function listen(server: grpc.Server): Promise<string> {
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (e, p) => e ? reject(e) : resolve(p),
    )
  );
  return `127.0.0.1:${port}`;
}

const request: HeartbeatRequest__Output = {
  namespace: "ns",
  executorId: "e1",
  status: "EXECUTOR_STATUS_ACTIVE",
  shardStatusReports: {
    "3": {
      status: "SHARD_STATUS_READY",
      shardLoad: 1.5,
      failedStarts: 0,
      topKeys: [],
    },
  },
  appliedRevision: "0",
  warmHandover: false,
  incarnation: "",
  metadata: { address: "a:1" },
};

Deno.test("the gRPC transport sends heartbeats and moves to the next address after a failure", async () => {
  const dead = new grpc.Server();
  const deadAddress = await listen(dead);
  dead.forceShutdown();
  const received: HeartbeatRequest__Output[] = [];
  const live = new grpc.Server();
  live.addService(executorService, {
    Heartbeat: (
      call: grpc.ServerUnaryCall<HeartbeatRequest__Output, unknown>,
      cb: grpc.sendUnaryData<unknown>,
    ) => {
      received.push(call.request);
      cb(null, { shardAssignments: { "3": { status: 1, fencingToken: "42" } } });
    },
  } as unknown as grpc.UntypedServiceImplementation);
  const liveAddress = await listen(live);
  const transport = grpcHeartbeatTransport([deadAddress, liveAddress]);
  try {
    const options = { signal: new AbortController().signal, timeoutMs: 5_000 };
    await assert.rejects(
      transport.heartbeat(request, options),
      (e: ShardManagerError) =>
        e.code === "UNAVAILABLE" && e.grpcCode === grpc.status.UNAVAILABLE &&
        e.message.startsWith(`Cannot reach the service at ${deadAddress}`),
    );
    const answer = await transport.heartbeat(request, options);
    assert.deepEqual(answer.shardAssignments, {
      "3": { status: "ASSIGNMENT_STATUS_READY", fencingToken: "42", keyRange: null },
    });
    assert.deepEqual(received[0]?.shardStatusReports, request.shardStatusReports);
    assert.deepEqual(received[0]?.metadata, request.metadata);
  } finally {
    transport.close();
    live.forceShutdown();
  }
});

Deno.test("the gRPC transport looks a shard's owner up (GetShardOwner) for prepare's currentOwner()", async () => {
  const server = new grpc.Server();
  server.addService(shardDistributorService, {
    GetShardOwner: (
      call: grpc.ServerUnaryCall<{ namespace: string; shardKey: string }, unknown>,
      cb: grpc.sendUnaryData<unknown>,
    ) => {
      const { namespace, shardKey } = call.request;
      if (shardKey === "9") {
        return cb({ code: grpc.status.NOT_FOUND, details: "shard 9 not found" });
      }
      if (shardKey === "8") return cb({ code: grpc.status.UNAVAILABLE, details: "no leader" });
      cb(null, { owner: "old", namespace, metadata: { address: "10.0.0.9:80" } });
    },
  } as unknown as grpc.UntypedServiceImplementation);
  const address = await listen(server);
  const transport = grpcHeartbeatTransport([address]);
  const options = { signal: new AbortController().signal, timeoutMs: 5_000 };
  try {
    const owner = await transport.shardOwner!({ namespace: "ns", shardKey: "3" }, options);
    assert.deepEqual(owner, { executorId: "old", metadata: { address: "10.0.0.9:80" } });
    assert.equal(
      await transport.shardOwner!({ namespace: "ns", shardKey: "9" }, options),
      undefined,
    );
    await assert.rejects(
      transport.shardOwner!({ namespace: "ns", shardKey: "8" }, options),
      (e: ShardManagerError) => e.code === "UNAVAILABLE",
    );
  } finally {
    transport.close();
    server.forceShutdown();
  }
});
