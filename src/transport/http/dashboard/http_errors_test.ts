import assert from "node:assert/strict";
import {
  ExecutorNotFoundError,
  FencedError,
  InvalidArgumentError,
  NamespaceNotFoundError,
  ShardDrainedError,
  ShardNotFoundError,
  ShuttingDownError,
  StoreUnavailableError,
} from "../../../core/errors.ts";
import { errorResponse, httpStatusOf, jsonError } from "./http_errors.ts";

Deno.test("domain errors map to the HTTP statuses of their gRPC codes", () => {
  assert.equal(httpStatusOf(new InvalidArgumentError("shardKeys", "is empty")), 400);
  assert.equal(httpStatusOf(new NamespaceNotFoundError("x")), 404);
  assert.equal(httpStatusOf(new ShardNotFoundError("x", "9")), 404);
  assert.equal(httpStatusOf(new ExecutorNotFoundError("x", "e")), 404);
  assert.equal(httpStatusOf(new ShardDrainedError("x", "1")), 409);
  assert.equal(httpStatusOf(new FencedError("x", "lost")), 409);
  assert.equal(httpStatusOf(new StoreUnavailableError("etcd down")), 503);
  assert.equal(httpStatusOf(new ShuttingDownError()), 503);
  assert.equal(httpStatusOf(new TypeError("bug")), undefined);
});

Deno.test("an error answer is JSON with the message, and bugs are rethrown", async () => {
  const response = errorResponse(new NamespaceNotFoundError("nope"));
  assert.equal(response.status, 404);
  assert.equal(response.headers.get("content-type"), "application/json");
  assert.deepEqual(await response.json(), { error: 'Namespace "nope" not found' });
  assert.throws(() => errorResponse(new Error("bug")), /bug/);
  const withHeader = jsonError(405, "Use POST", { allow: "POST" });
  assert.equal(withHeader.headers.get("allow"), "POST");
  assert.equal(withHeader.headers.get("cache-control"), "no-store");
});
