import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import {
  ExecutorNotFoundError,
  FencedError,
  InvalidArgumentError,
  NamespaceNotFoundError,
  NoOwnerError,
  ShardDrainedError,
  ShardManagerError,
  ShardNotFoundError,
  ShuttingDownError,
  StoreUnavailableError,
} from "../../core/errors.ts";
import { isUnexpected, toGrpcError } from "./status_map.ts";

Deno.test("status map gives each domain error its gRPC code and keeps its message", () => {
  const cases: [Error, grpc.status][] = [
    [new InvalidArgumentError("metadata", "has 33 keys"), grpc.status.INVALID_ARGUMENT],
    [new NamespaceNotFoundError("ns"), grpc.status.NOT_FOUND],
    [new ShardNotFoundError("ns", "7"), grpc.status.NOT_FOUND],
    [new ExecutorNotFoundError("ns", "e1"), grpc.status.NOT_FOUND],
    [new ShardDrainedError("ns", "7"), grpc.status.FAILED_PRECONDITION],
    [new NoOwnerError("ns", "7", "no executor"), grpc.status.UNAVAILABLE],
    [new StoreUnavailableError("etcd down"), grpc.status.UNAVAILABLE],
    [new ShuttingDownError(), grpc.status.UNAVAILABLE],
    [new FencedError("ns", "term 4 took over"), grpc.status.ABORTED],
  ];
  for (const [error, code] of cases) {
    assert.deepEqual(toGrpcError(error), { code, details: error.message }, error.name);
    assert.equal(isUnexpected(error), false, error.name);
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
  });
  assert.equal(isUnexpected(new NewDomainError("odd")), false);
});
