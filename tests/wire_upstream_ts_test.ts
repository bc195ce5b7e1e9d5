/**
 * Typed error details as an upstream client reads them: calls made with
 * clients built from upstream's compiled contract only (`proto/upstream/`,
 * loaded by `@grpc/proto-loader`'s `loadFileDescriptorSetFromBuffer`), details
 * decoded with upstream's message types and the `google.rpc.Status` envelope
 * decoded by protobufjs. Against a real service instance on a real etcd.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect, grpc } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import {
  decodeMessage,
  loadUpstream,
  statusTrailer,
  upstreamClients,
} from "./support/upstream_wire.ts";
import { packageDefinition } from "../src/wire/package_definition.ts";
import { createSpectator, ShardOwnerLookupError } from "../src/client/mod.ts";

const V1 = "uber.cadence.sharddistributor.v1";

async function failure(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await promise;
  } catch (error) {
    return error as grpc.ServiceError;
  }
  throw new Error("Expected the call to fail");
}

/** Asserts `error`'s trailer: a Status repeating code and message, with one detail of `type`. */
function detailOf(error: grpc.ServiceError, type: string): Uint8Array {
  const status = statusTrailer(error);
  assert.ok(status, `${error.details}: a grpc-status-details-bin trailer`);
  assert.equal(status.code, error.code, "the Status repeats the call's code");
  assert.equal(status.message, error.details, "and its message");
  assert.equal(status.details.length, 1);
  assert.equal(status.details[0]!.type_url, `type.googleapis.com/${V1}.${type}`);
  return status.details[0]!.value;
}

Deno.test("upstream clients get upstream's typed error details, with code and message unchanged", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("upstream-ts"),
    namespaces: [
      { name: "fixed", type: "fixed", shardNum: 4 },
      { name: "eph", type: "ephemeral", maxShards: 1 },
    ],
  }));
  const shardManager = await loadUpstream("shardManager");
  const cadence = await loadUpstream("cadence");
  const upstream = upstreamClients(shardManager, instance.server.address);
  const ours = connect(instance.server.address);
  const executors = runExecutors(ours, "fixed", ["a"], { intervalMs: 200 });
  const ephExecutors = runExecutors(ours, "eph", ["e"], { intervalMs: 200 });
  try {
    await eventually(() => executors[0]!.shards.length === 4, 10_000, "fixed placed");

    // GetShardOwner, through upstream's own client: unknown namespace, unknown fixed shard.
    const noNamespace = await failure(
      call(upstream.api, "GetShardOwner", { namespace: "nope", shard_key: "1" }),
    );
    assert.equal(noNamespace.code, grpc.status.NOT_FOUND);
    assert.equal(noNamespace.details, 'Namespace "nope" not found');
    assert.deepEqual(
      decodeMessage(
        shardManager,
        `${V1}.NamespaceNotFoundError`,
        detailOf(noNamespace, "NamespaceNotFoundError"),
      ),
      { namespace: "nope" },
    );
    const noShard = await failure(
      call(upstream.api, "GetShardOwner", { namespace: "fixed", shard_key: "4" }),
    );
    assert.equal(noShard.code, grpc.status.NOT_FOUND);
    assert.deepEqual(
      decodeMessage(
        shardManager,
        `${V1}.ShardNotFoundError`,
        detailOf(noShard, "ShardNotFoundError"),
      ),
      { namespace: "fixed", shard_key: "4" },
    );

    // Heartbeat on an unknown namespace, through upstream's executor client.
    const beat = await failure(call(upstream.executor, "Heartbeat", {
      namespace: "nope",
      executor_id: "x",
      status: "EXECUTOR_STATUS_ACTIVE",
    }));
    assert.equal(beat.code, grpc.status.NOT_FOUND);
    assert.deepEqual(
      decodeMessage(
        shardManager,
        `${V1}.NamespaceNotFoundError`,
        detailOf(beat, "NamespaceNotFoundError"),
      ),
      { namespace: "nope" },
    );

    // WatchNamespaceState on an unknown namespace: the stream's error carries it too.
    const watchError = await new Promise<grpc.ServiceError>((resolve) => {
      const stream = (upstream.api as unknown as {
        WatchNamespaceState(req: unknown): grpc.ClientReadableStream<unknown>;
      }).WatchNamespaceState({ namespace: "nope" });
      stream.on("data", () => {});
      stream.on("error", (error: grpc.ServiceError) => resolve(error));
    });
    assert.equal(watchError.code, grpc.status.NOT_FOUND);
    assert.deepEqual(
      decodeMessage(
        shardManager,
        `${V1}.NamespaceNotFoundError`,
        detailOf(watchError, "NamespaceNotFoundError"),
      ),
      { namespace: "nope" },
    );

    // A drained shard: this server's ShardDrainedError, read with our contract.
    await call(ours.api, "drainShards", { namespace: "fixed", shardKeys: ["2"] });
    for (const method of ["getShardOwner", "inspectShard"]) {
      const drained = await failure(call(ours.api, method, { namespace: "fixed", shardKey: "2" }));
      assert.equal(drained.code, grpc.status.FAILED_PRECONDITION, method);
      assert.match(drained.details, /is drained; undrain it/);
      assert.deepEqual(
        decodeMessage(
          packageDefinition,
          `${V1}.ShardDrainedError`,
          detailOf(drained, "ShardDrainedError"),
        ),
        { namespace: "fixed", shardKey: "2" },
      );
    }

    // InspectShard on an ephemeral key it never saw.
    const inspect = await failure(
      call(ours.api, "inspectShard", { namespace: "eph", shardKey: "never" }),
    );
    assert.equal(inspect.code, grpc.status.NOT_FOUND);
    assert.deepEqual(
      decodeMessage(
        shardManager,
        `${V1}.ShardNotFoundError`,
        detailOf(inspect, "ShardNotFoundError"),
      ),
      { namespace: "eph", shard_key: "never" },
    );

    // The ephemeral shard cap, decoded with the type from Cadence's own older contract.
    await eventually(() => ephExecutors[0]!.beats > 0, 10_000, "the eph executor registered");
    await call(upstream.api, "GetShardOwner", { namespace: "eph", shard_key: "first" });
    const capped = await failure(
      call(upstream.api, "GetShardOwner", { namespace: "eph", shard_key: "second" }),
    );
    assert.equal(capped.code, grpc.status.RESOURCE_EXHAUSTED);
    assert.match(capped.details, /at its shard cap of 1 \(maxShards\)/);
    assert.deepEqual(
      decodeMessage(
        cadence,
        `${V1}.EphemeralShardLimitExceededError`,
        detailOf(capped, "EphemeralShardLimitExceededError"),
      ),
      { namespace: "eph", max_limit: "1", current_value: "1" },
    );

    // The spectator SDK decodes the detail of a failed lookup into a typed field.
    await call(ours.api, "drainShards", { namespace: "eph", shardKeys: ["parked"] });
    await using spectator = createSpectator({
      addresses: [instance.server.address],
      namespace: "eph",
    });
    await spectator.waitReady({ timeoutMs: 10_000 });
    const lookup = await spectator.owner("parked").catch((error: unknown) => error);
    assert.ok(lookup instanceof ShardOwnerLookupError, String(lookup));
    assert.equal(lookup.grpcCode, grpc.status.FAILED_PRECONDITION);
    assert.equal(lookup.code, "SHARD_DRAINED");
    assert.equal(lookup.retryable, false);
    assert.deepEqual(lookup.details, {
      type: "ShardDrainedError",
      namespace: "eph",
      shardKey: "parked",
    });

    // Every operator RPC that names an unknown namespace.
    const operator: [string, Record<string, unknown>][] = [
      ["inspectShard", { shardKey: "1" }],
      ["getNamespaceState", {}],
      ["getExecutorState", { executorId: "a" }],
      ["drainShards", { shardKeys: ["1"] }],
      ["undrainShards", { shardKeys: ["1"] }],
      ["getDrainedShards", {}],
      ["forceResetNamespace", {}],
      ["drainExecutors", { executorId: "a" }],
      ["undrainExecutors", { executorId: "a" }],
      ["listExecutorDrains", {}],
      ["moveShards", { shardKeys: ["1"], toExecutorId: "a" }],
      ["getBlastRadius", {}],
    ];
    for (const [method, request] of operator) {
      const error = await failure(call(ours.api, method, { namespace: "nope", ...request }));
      assert.equal(error.code, grpc.status.NOT_FOUND, method);
      assert.equal(error.details, 'Namespace "nope" not found', method);
      assert.deepEqual(
        decodeMessage(
          shardManager,
          `${V1}.NamespaceNotFoundError`,
          detailOf(error, "NamespaceNotFoundError"),
        ),
        { namespace: "nope" },
        method,
      );
    }

    // Errors upstream answers without details still have none.
    const invalid = await failure(
      call(upstream.api, "GetShardOwner", { namespace: "fixed", shard_key: "" }),
    );
    assert.equal(invalid.code, grpc.status.INVALID_ARGUMENT);
    assert.equal(statusTrailer(invalid), undefined);
  } finally {
    for (const e of [...executors, ...ephExecutors]) e.stop();
    upstream.close();
    ours.close();
    await instance.stop();
  }
});
