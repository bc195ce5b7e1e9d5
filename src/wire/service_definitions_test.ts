import assert from "node:assert/strict";
import type { Buffer } from "node:buffer";
import type * as protoLoader from "@grpc/proto-loader";
import { packageDefinition } from "./package_definition.ts";
import { contractMessage, executorService, shardDistributorService } from "./proto.ts";
import type { ServiceDefinition } from "./service_definitions.ts";

const V1 = "uber.cadence.sharddistributor.v1";
const SERVICES: Record<string, ServiceDefinition> = {
  [`${V1}.ShardDistributorAPI`]: shardDistributorService as unknown as ServiceDefinition,
  [`${V1}.ShardDistributorExecutorAPI`]: executorService as unknown as ServiceDefinition,
};

/** What the loader made of `name`, the reference the SDK's own builder must equal. */
function loaderService(name: string): protoLoader.ServiceDefinition {
  return packageDefinition[name] as protoLoader.ServiceDefinition;
}

/** Realistic messages, with maps, enums, int64 beyond 2^53, doubles, nested and unset fields. */
const SAMPLES: Record<string, object> = {
  HeartbeatRequest: {
    namespace: "ns",
    executorId: "e-1",
    status: "EXECUTOR_STATUS_DRAINING",
    shardStatusReports: { "7": { status: "SHARD_STATUS_READY", shardLoad: 2.5 } },
    metadata: { address: "10.0.0.1:80" },
    appliedRevision: "9007199254740993",
  },
  HeartbeatResponse: {
    shardAssignments: {
      "1": { status: "ASSIGNMENT_STATUS_READY", fencingToken: "9007199254740993" },
      "2": {},
    },
  },
  WatchNamespaceStateResponse: {
    executors: [{
      executorId: "e-1",
      metadata: { address: "a:1" },
      shards: [{ shardKey: "1", rank: 2 }],
    }],
    revision: "9007199254740993",
    isDelta: true,
    ownerChanges: [{ shardKey: "1", executorId: "e-2", executorIds: ["e-2", "e-3"] }],
    removedExecutors: ["e-0"],
  },
  GetShardOwnerResponse: { owner: "e-1", namespace: "ns", metadata: { address: "a:1" } },
};

Deno.test("the SDK's service definitions have the loader's paths, stream kinds and method names", () => {
  for (const [name, ours] of Object.entries(SERVICES)) {
    const theirs = loaderService(name);
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(theirs).sort(), name);
    for (const [method, definition] of Object.entries(theirs)) {
      const mine = ours[method]!;
      const shape = (d: typeof mine | typeof definition) => ({
        path: d.path,
        requestStream: d.requestStream,
        responseStream: d.responseStream,
        originalName: d.originalName,
      });
      assert.deepEqual(shape(mine), shape(definition), `${name}.${method}`);
    }
  }
});

Deno.test("every method encodes and decodes byte for byte as the loader does", () => {
  let sampled = 0;
  for (const [name, ours] of Object.entries(SERVICES)) {
    for (const [method, theirs] of Object.entries(loaderService(name))) {
      const mine = ours[method]!;
      for (const side of ["request", "response"] as const) {
        const type = (side === "request" ? theirs.requestType : theirs.responseType).type as {
          name: string;
        };
        const serialize = side === "request" ? "requestSerialize" : "responseSerialize";
        const deserialize = side === "request" ? "requestDeserialize" : "responseDeserialize";
        const sample = SAMPLES[type.name];
        if (sample) sampled++;
        const bytes = theirs[serialize](sample ?? {});
        assert.deepEqual(mine[serialize](sample ?? {}), bytes, `${name}.${method} ${side}`);
        // Decoding: every field present, at its default where unset, in the same form.
        assert.deepEqual(mine[deserialize](bytes), theirs[deserialize](bytes));
        const empty = new Uint8Array() as Buffer;
        assert.deepEqual(mine[deserialize](empty), theirs[deserialize](empty));
      }
    }
  }
  assert.ok(sampled >= 4, `the samples were used (${sampled})`);
});

Deno.test("a message being sent as an array is refused with the loader's message", () => {
  const ours = executorService.Heartbeat.requestSerialize;
  const theirs = loaderService(`${V1}.ShardDistributorExecutorAPI`).Heartbeat!.requestSerialize;
  const error = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return "no error";
  };
  assert.equal(error(() => ours([] as never)), error(() => theirs([])));
});

Deno.test("contractMessage codes a detail message as the loader's package definition does", () => {
  const name = `${V1}.EphemeralShardLimitExceededError`;
  const theirs = packageDefinition[name] as protoLoader.MessageTypeDefinition<object, object>;
  const ours = contractMessage(name);
  const value = { namespace: "ns", maxLimit: 10, currentValue: 11 };
  assert.deepEqual(ours.serialize(value), theirs.serialize(value));
  assert.deepEqual(
    ours.deserialize(theirs.serialize(value)),
    theirs.deserialize(theirs.serialize(value)),
  );
});
