import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import {
  type GetShardOwnerResponse__Output,
  ShardDistributorAPIClient,
  shardDistributorService,
} from "../../wire/proto.ts";
import { clientCredentials } from "./credentials.ts";
import { callUnary } from "./unary.ts";

async function withServer(
  fn: (api: ShardDistributorAPIClient) => Promise<void>,
): Promise<void> {
  const server = new grpc.Server();
  server.addService(shardDistributorService, {
    GetShardOwner: (
      call: grpc.ServerUnaryCall<{ shardKey: string }, unknown>,
      cb: grpc.sendUnaryData<unknown>,
    ) => {
      if (call.request.shardKey === "slow") return; // never answers
      if (call.request.shardKey === "missing") {
        return cb({ code: grpc.status.NOT_FOUND, details: "no such shard" });
      }
      cb(null, { owner: "e1", namespace: "ns", metadata: {} });
    },
  } as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (e, p) => e ? reject(e) : resolve(p),
    )
  );
  const api = new ShardDistributorAPIClient(`127.0.0.1:${port}`, clientCredentials().credentials);
  try {
    await fn(api);
  } finally {
    api.close();
    server.forceShutdown();
  }
}

Deno.test("callUnary resolves responses and rejects with the gRPC status", async () => {
  await withServer(async (api) => {
    const res = await callUnary<GetShardOwnerResponse__Output>(api, "getShardOwner", {
      namespace: "ns",
      shardKey: "1",
    });
    assert.equal(res.owner, "e1");
    await assert.rejects(
      callUnary(api, "getShardOwner", { namespace: "ns", shardKey: "missing" }),
      (e: grpc.ServiceError) => e.code === grpc.status.NOT_FOUND && e.details === "no such shard",
    );
    await assert.rejects(
      callUnary(api, "getShardOwner", { namespace: "ns", shardKey: "slow" }, { deadlineMs: 100 }),
      (e: grpc.ServiceError) => e.code === grpc.status.DEADLINE_EXCEEDED,
    );
    const controller = new AbortController();
    const pending = callUnary(api, "getShardOwner", { namespace: "ns", shardKey: "slow" }, {
      signal: controller.signal,
    });
    controller.abort();
    await assert.rejects(pending, (e: grpc.ServiceError) => e.code === grpc.status.CANCELLED);
  });
});

Deno.test("clientCredentials refuses half a client certificate and unreadable files", () => {
  assert.throws(() => clientCredentials({ certFile: "/nonexistent" }), /given together/);
  assert.throws(() => clientCredentials({ caFile: "/nonexistent/ca.pem" }), /cannot read TLS CA/);
});
