import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect, grpc, heartbeat } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type { HeartbeatRequest } from "../src/wire/proto.ts";

async function failure(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await promise;
  } catch (error) {
    return error as grpc.ServiceError;
  }
  throw new Error("Expected the call to fail");
}

Deno.test("bad heartbeats, unknown namespaces and unknown shards get the documented status codes", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("errors"),
    namespaces: [{ name: "fixed", type: "fixed", shardNum: 4 }, { name: "eph", type: "ephemeral" }],
  }));
  const clients = connect(instance.server.address);
  const good: HeartbeatRequest = {
    namespace: "fixed",
    executorId: "e1",
    status: "EXECUTOR_STATUS_ACTIVE",
  };
  const big = "x".repeat(512 * 1024 + 1);
  const badHeartbeats: [string, HeartbeatRequest, grpc.status, RegExp][] = [
    ["empty executor id", { ...good, executorId: "" }, grpc.status.INVALID_ARGUMENT, /executor_id/],
    [
      "status INVALID",
      { ...good, status: "EXECUTOR_STATUS_INVALID" },
      grpc.status.INVALID_ARGUMENT,
      /status/,
    ],
    [
      "33 metadata keys",
      {
        ...good,
        metadata: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, "v"])),
      },
      grpc.status.INVALID_ARGUMENT,
      /metadata/,
    ],
    [
      "a 129-character metadata key",
      { ...good, metadata: { ["k".repeat(129)]: "v" } },
      grpc.status.INVALID_ARGUMENT,
      /metadata/,
    ],
    [
      "a 65×é metadata key (130 UTF-8 bytes)",
      { ...good, metadata: { ["é".repeat(65)]: "v" } },
      grpc.status.INVALID_ARGUMENT,
      /key is 130 bytes \(UTF-8\); at most 128/,
    ],
    [
      "a 40×😀 metadata key (160 UTF-8 bytes)",
      { ...good, metadata: { ["😀".repeat(40)]: "v" } },
      grpc.status.INVALID_ARGUMENT,
      /key is 160 bytes \(UTF-8\); at most 128/,
    ],
    [
      "a metadata value over 512 KiB",
      { ...good, metadata: { addr: big } },
      grpc.status.INVALID_ARGUMENT,
      /metadata\["addr"\]/,
    ],
    [
      "a negative shard load",
      { ...good, shardStatusReports: { "1": { status: "SHARD_STATUS_READY", shardLoad: -1 } } },
      grpc.status.INVALID_ARGUMENT,
      /shard_load/,
    ],
    [
      "an INVALID shard status",
      { ...good, shardStatusReports: { "1": { status: "SHARD_STATUS_INVALID", shardLoad: 1 } } },
      grpc.status.INVALID_ARGUMENT,
      /status/,
    ],
    ["an empty namespace", { ...good, namespace: "" }, grpc.status.INVALID_ARGUMENT, /namespace/],
    ["an unknown namespace", { ...good, namespace: "nope" }, grpc.status.NOT_FOUND, /nope/],
  ];
  try {
    for (const [what, request, code, field] of badHeartbeats) {
      const error = await failure(heartbeat(clients, request));
      assert.equal(error.code, code, `${what}: ${error.details}`);
      assert.match(error.details, field, `${what}: message names the field`);
    }
    // A good heartbeat still works after all of that, with a 128-byte (64×é) metadata key.
    await heartbeat(clients, good);
    await heartbeat(clients, { ...good, metadata: { ["é".repeat(64)]: "v" } });
    // Enum values this server does not know are accepted (proto3 enums are open).
    await heartbeat(clients, {
      ...good,
      status: 42 as never,
      shardStatusReports: { "1": { status: 9 as never, shardLoad: 1 } },
    });

    const api: [string, string, Record<string, unknown>, grpc.status][] = [
      [
        "GetShardOwner unknown namespace",
        "getShardOwner",
        { namespace: "nope", shardKey: "1" },
        grpc.status.NOT_FOUND,
      ],
      [
        "GetShardOwner shard out of range",
        "getShardOwner",
        { namespace: "fixed", shardKey: "4" },
        grpc.status.NOT_FOUND,
      ],
      [
        "GetShardOwner non-canonical key",
        "getShardOwner",
        { namespace: "fixed", shardKey: "01" },
        grpc.status.NOT_FOUND,
      ],
      [
        "GetShardOwner empty key",
        "getShardOwner",
        { namespace: "fixed", shardKey: "" },
        grpc.status.INVALID_ARGUMENT,
      ],
      [
        "InspectShard never creates",
        "inspectShard",
        { namespace: "eph", shardKey: "new" },
        grpc.status.NOT_FOUND,
      ],
      [
        "InspectShard unknown namespace",
        "inspectShard",
        { namespace: "nope", shardKey: "1" },
        grpc.status.NOT_FOUND,
      ],
      [
        "GetNamespaceState unknown",
        "getNamespaceState",
        { namespace: "nope" },
        grpc.status.NOT_FOUND,
      ],
      ["GetExecutorState unknown executor", "getExecutorState", {
        namespace: "fixed",
        executorId: "zz",
      }, grpc.status.NOT_FOUND],
      [
        "GetDrainedShards unknown",
        "getDrainedShards",
        { namespace: "nope" },
        grpc.status.NOT_FOUND,
      ],
      [
        "DrainShards unknown",
        "drainShards",
        { namespace: "nope", shardKeys: ["1"] },
        grpc.status.NOT_FOUND,
      ],
      [
        "ForceResetNamespace unknown",
        "forceResetNamespace",
        { namespace: "nope" },
        grpc.status.NOT_FOUND,
      ],
      ["WatchNamespaceState-less check", "listNamespaces", {}, grpc.status.OK],
    ];
    for (const [what, method, request, code] of api) {
      const result = await call(clients.api, method, request).then(
        () => grpc.status.OK,
        (e) => e.code,
      );
      assert.equal(result, code, what);
    }
    // The watch stream reports an unknown namespace as NOT_FOUND too.
    const stream = clients.api.watchNamespaceState({ namespace: "nope" });
    const streamError = await new Promise<grpc.ServiceError>((resolve) =>
      stream.on("error", resolve)
    );
    assert.equal(streamError.code, grpc.status.NOT_FOUND);
  } finally {
    clients.close();
    await instance.stop();
  }
});
