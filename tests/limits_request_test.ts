/**
 * Request limits over real gRPC: each refused request gets INVALID_ARGUMENT
 * (or RESOURCE_EXHAUSTED for an oversized message) with a message naming the
 * field and the limit, and the limits follow the `limits` config section.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect, grpc, heartbeat } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

async function refusal(promise: Promise<unknown>): Promise<{ code: string; details: string }> {
  const error = await promise.then(() => undefined, (e: grpc.ServiceError) => e);
  assert.ok(error, "the request was accepted");
  return { code: grpc.status[error.code] ?? String(error.code), details: error.details };
}

Deno.test("oversized and malformed request fields are refused with errors that name the field and the limit", async () => {
  const etcd = await startEtcd();
  const instance = await startInProcess(
    testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("limits-request"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }, { name: "eph", type: "ephemeral" }],
    }) + [
      "limits:",
      "  maxShardKeyLength: 16",
      "  maxShardKeysPerRequest: 3",
      "  maxShardReportsPerHeartbeat: 2",
      "  maxMetadataBytes: 2048",
      "  maxReceiveMessageBytes: 65536",
      "",
    ].join("\n"),
  );
  const clients = connect(instance.server.address);
  const beat = (extra: Record<string, unknown>) =>
    heartbeat(clients, {
      namespace: "ns",
      executorId: "e1",
      status: "EXECUTOR_STATUS_ACTIVE",
      ...extra,
    });
  try {
    const cases: [string, Promise<unknown>, string, RegExp][] = [
      [
        "a shard key over maxShardKeyLength",
        call(clients.api, "getShardOwner", { namespace: "eph", shardKey: "k".repeat(17) }),
        "INVALID_ARGUMENT",
        /^Invalid shard_key: is 17 bytes \(UTF-8\); at most 16 are allowed \(limits\.maxShardKeyLength\)$/,
      ],
      [
        "a namespace the configuration could never hold",
        call(clients.api, "getShardOwner", { namespace: "no/such ns", shardKey: "1" }),
        "INVALID_ARGUMENT",
        /^Invalid namespace: expected 1 to 128 letters, digits/,
      ],
      [
        "a well-formed but unknown namespace",
        call(clients.api, "getShardOwner", { namespace: "other", shardKey: "1" }),
        "NOT_FOUND",
        /Namespace "other" not found/,
      ],
      [
        "too many shard keys in a drain",
        call(clients.api, "drainShards", { namespace: "ns", shardKeys: ["0", "1", "2", "3"] }),
        "INVALID_ARGUMENT",
        /^Invalid shard_keys: has 4 keys; at most 3 are allowed \(limits\.maxShardKeysPerRequest\)$/,
      ],
      [
        "an empty shard key in a drain",
        call(clients.api, "drainShards", { namespace: "ns", shardKeys: ["0", ""] }),
        "INVALID_ARGUMENT",
        /^Invalid shard_keys\[1\]: must not be empty$/,
      ],
      [
        "an executor id with a control character",
        call(clients.api, "getExecutorState", { namespace: "ns", executorId: "a\u0000b" }),
        "INVALID_ARGUMENT",
        /^Invalid executor_id: must not contain control characters/,
      ],
      [
        "too many shard reports in a heartbeat",
        beat({
          shardStatusReports: Object.fromEntries(
            ["0", "1", "2"].map((k) => [k, { status: "SHARD_STATUS_READY", shardLoad: 1 }]),
          ),
        }),
        "INVALID_ARGUMENT",
        /^Invalid shard_status_reports: has 3 reports; at most 2 are allowed/,
      ],
      [
        "metadata over maxMetadataBytes",
        beat({ metadata: { a: "x".repeat(1500), b: "y".repeat(1500) } }),
        "INVALID_ARGUMENT",
        /^Invalid metadata: is \d+ bytes as stored; at most 2048 are allowed \(limits\.maxMetadataBytes\)$/,
      ],
      [
        "33 metadata entries",
        beat({ metadata: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, ""])) }),
        "INVALID_ARGUMENT",
        /^Invalid metadata: has 33 keys; at most 32 are allowed$/,
      ],
      [
        "an executor status of INVALID (unset)",
        beat({ status: "EXECUTOR_STATUS_INVALID" }),
        "INVALID_ARGUMENT",
        /^Invalid status: must be one of EXECUTOR_STATUS_ACTIVE/,
      ],
      [
        "a drain reason over 1024 bytes",
        call(clients.api, "drainExecutors", {
          namespace: "ns",
          executorId: "e1",
          reason: "r".repeat(1025),
        }),
        "INVALID_ARGUMENT",
        /^Invalid reason: is 1025 bytes \(UTF-8\); at most 1024 are allowed$/,
      ],
      [
        "a message over maxReceiveMessageBytes",
        beat({ metadata: { a: "x".repeat(70_000) } }),
        "RESOURCE_EXHAUSTED",
        /larger than max/,
      ],
    ];
    for (const [what, promise, code, message] of cases) {
      const got = await refusal(promise);
      assert.equal(got.code, code, `${what}: ${got.details}`);
      assert.match(got.details, message, what);
    }
    // Within the limits, the same calls succeed.
    await beat({ metadata: { a: "x".repeat(1000) } });
    await call(clients.api, "drainShards", { namespace: "ns", shardKeys: ["0", "1", "2"] });
  } finally {
    clients.close();
    await instance.stop();
    await etcd.close();
  }
});
