import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import { executorService, type HeartbeatRequest__Output } from "../../wire/proto.ts";
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
  shardStatusReports: { "3": { status: "SHARD_STATUS_READY", shardLoad: 1.5 } },
  appliedRevision: "0",
  warmHandover: false,
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
      "3": { status: "ASSIGNMENT_STATUS_READY", fencingToken: "42" },
    });
    assert.deepEqual(received[0]?.shardStatusReports, request.shardStatusReports);
    assert.deepEqual(received[0]?.metadata, request.metadata);
  } finally {
    transport.close();
    live.forceShutdown();
  }
});
