import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import {
  EphemeralShardLimitExceededError,
  ExecutorNotFoundError,
  FencedError,
  InvalidArgumentError,
  NamespaceNotFoundError,
  NoOwnerError,
  ResourceExhaustedError,
  ShardDrainedError,
  ShardManagerError,
  ShardNotFoundError,
  ShuttingDownError,
  StoreUnavailableError,
} from "../../core/errors.ts";
import { decodeStatusDetails, STATUS_DETAILS_KEY } from "../../wire/error_details.ts";
import { isUnexpected, toGrpcError } from "./status_map.ts";

Deno.test("status map gives each domain error its gRPC code and keeps its message", () => {
  const cases: [Error, grpc.status][] = [
    [new InvalidArgumentError("metadata", "has 33 keys"), grpc.status.INVALID_ARGUMENT],
    [new NamespaceNotFoundError("ns"), grpc.status.NOT_FOUND],
    [new ShardNotFoundError("ns", "7"), grpc.status.NOT_FOUND],
    [new ExecutorNotFoundError("ns", "e1"), grpc.status.NOT_FOUND],
    [new ShardDrainedError("ns", "7"), grpc.status.FAILED_PRECONDITION],
    [new EphemeralShardLimitExceededError("ns", 3, 3, "full"), grpc.status.RESOURCE_EXHAUSTED],
    [new NoOwnerError("ns", "7", "no executor"), grpc.status.UNAVAILABLE],
    [new StoreUnavailableError("etcd down"), grpc.status.UNAVAILABLE],
    [new ShuttingDownError(), grpc.status.UNAVAILABLE],
    [new FencedError("ns", "term 4 took over"), grpc.status.ABORTED],
  ];
  for (const [error, code] of cases) {
    const { metadata: _, ...status } = toGrpcError(error);
    assert.deepEqual(status, { code, details: error.message, message: error.message }, error.name);
    assert.equal(isUnexpected(error), false, error.name);
  }
});

Deno.test("status map attaches upstream's typed details, and this server's for a drained shard", () => {
  const cases: [Error, Record<string, unknown>][] = [
    [new NamespaceNotFoundError("nope"), { type: "NamespaceNotFoundError", namespace: "nope" }],
    [
      new ShardNotFoundError("ns", "k-9"),
      { type: "ShardNotFoundError", namespace: "ns", shardKey: "k-9" },
    ],
    [
      new ShardDrainedError("ns", "4"),
      { type: "ShardDrainedError", namespace: "ns", shardKey: "4" },
    ],
    [
      new EphemeralShardLimitExceededError("eph", 20, 21, "it holds 21 shards"),
      {
        type: "EphemeralShardLimitExceededError",
        namespace: "eph",
        maxLimit: 20,
        currentValue: 21,
      },
    ],
  ];
  for (const [error, detail] of cases) {
    const status = toGrpcError(error);
    const trailer = status.metadata?.get(STATUS_DETAILS_KEY);
    assert.equal(trailer?.length, 1, error.name);
    const decoded = decodeStatusDetails(trailer![0] as Uint8Array);
    assert.equal(decoded.code, status.code, "the Status repeats the code");
    assert.equal(decoded.message, error.message, "and the message");
    assert.equal(decoded.details.length, 1);
    assert.equal(
      decoded.details[0]!.typeUrl,
      `type.googleapis.com/uber.cadence.sharddistributor.v1.${detail.type}`,
    );
    assert.deepEqual(decoded.detail, detail);
  }
});

Deno.test("status map sends no detail trailer for errors upstream answers without one", () => {
  for (
    const error of [
      new InvalidArgumentError("metadata", "x"),
      new ExecutorNotFoundError("ns", "e1"),
      new ResourceExhaustedError("ns", "some limit", "full"),
      new NoOwnerError("ns", "7", "no executor"),
      new Error("bug"),
    ]
  ) {
    assert.equal(toGrpcError(error).metadata, undefined, error.name);
  }
});

Deno.test("status map keeps the offending values in the details", () => {
  assert.match(toGrpcError(new ShardNotFoundError("orders", "k-9")).details, /"k-9".*"orders"/);
  assert.match(toGrpcError(new InvalidArgumentError("executor_id", "x")).details, /executor_id/);
});

Deno.test("status map turns an unknown error into INTERNAL with a generic message", () => {
  for (
    const error of [new Error("secret stack detail"), new TypeError("x is undefined"), "str", 42]
  ) {
    const mapped = toGrpcError(error);
    assert.equal(mapped.code, grpc.status.INTERNAL);
    assert.equal(mapped.details, "Internal error; see the service logs");
    assert.equal(isUnexpected(error), true);
  }
});

Deno.test("status map gives an unlisted domain error UNKNOWN, not INTERNAL", () => {
  class NewDomainError extends ShardManagerError {}
  assert.deepEqual(toGrpcError(new NewDomainError("odd")), {
    code: grpc.status.UNKNOWN,
    details: "odd",
    message: "odd",
  });
  assert.equal(isUnexpected(new NewDomainError("odd")), false);
});
