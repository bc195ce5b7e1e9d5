import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { encodeStatusDetails, STATUS_DETAILS_KEY } from "../../wire/error_details.ts";
import { classifyCallError } from "./classify.ts";
import { ShardManagerError } from "./errors.ts";

/** A grpc-js ServiceError as the client callback receives it. */
function grpcError(code: number, details: string, trailer?: Uint8Array): Error {
  return Object.assign(new Error(`${code} X: ${details}`), {
    code,
    details,
    metadata: { get: (key: string) => key === STATUS_DETAILS_KEY && trailer ? [trailer] : [] },
  });
}

const site = { address: "10.0.0.1:7943", namespace: "orders", operation: "Heartbeat" };

Deno.test("typed details decide the code, and are decoded", () => {
  const drained = classifyCallError(
    grpcError(
      9,
      "shard drained",
      Buffer.from(
        encodeStatusDetails(9, "d", { type: "ShardDrainedError", namespace: "o", shardKey: "4" }),
      ),
    ),
    site,
  );
  assert.equal(drained.code, "SHARD_DRAINED");
  assert.equal(drained.retryable, false);
  assert.equal(drained.grpcCode, 9);
  assert.deepEqual(drained.details, { type: "ShardDrainedError", namespace: "o", shardKey: "4" });
  const limit = classifyCallError(
    grpcError(
      8,
      "too many",
      Buffer.from(encodeStatusDetails(8, "t", {
        type: "EphemeralShardLimitExceededError",
        namespace: "o",
        maxLimit: 10,
        currentValue: 10,
      })),
    ),
  );
  assert.equal(limit.code, "EPHEMERAL_SHARD_LIMIT_EXCEEDED");
  assert.equal(limit.retryable, true);
});

Deno.test("statuses map to codes; permanent ones are not retryable", () => {
  const expected: [number, string, boolean][] = [
    [3, "INVALID_ARGUMENT", false],
    [4, "DEADLINE_EXCEEDED", true],
    [5, "NAMESPACE_NOT_FOUND", false],
    [7, "PERMISSION_DENIED", false],
    [9, "FAILED_PRECONDITION", true],
    [12, "UNIMPLEMENTED", false],
    [13, "INTERNAL", true],
    [14, "UNAVAILABLE", true],
    [16, "UNAUTHENTICATED", false],
  ];
  for (const [status, code, retryable] of expected) {
    const error = classifyCallError(grpcError(status, 'Namespace "orders" x'), site);
    assert.equal(error.code, code, `status ${status}`);
    assert.equal(error.retryable, retryable, `status ${status}`);
    assert.equal(error.grpcCode, status);
    assert.ok(error.cause instanceof Error);
  }
  assert.equal(classifyCallError(grpcError(5, 'Shard "9" not found')).code, "SHARD_NOT_FOUND");
});

Deno.test("messages are clean sentences naming the address", () => {
  const refused = classifyCallError(
    grpcError(
      14,
      "No connection established. Last error: Error: connect ECONNREFUSED 10.0.0.1:7943. Resolution note: ",
    ),
    site,
  );
  assert.equal(refused.message, "Cannot reach the service at 10.0.0.1:7943 (connection refused)");
  const dns = classifyCallError(
    grpcError(14, "Name resolution failed for target dns:nowhere.invalid:7943"),
    site,
  );
  assert.match(dns.message, /\(cannot resolve the host name\)$/);
  const denied = classifyCallError(grpcError(16, "missing bearer token"), site);
  assert.match(denied.message, /not authenticated: missing bearer token; pass the token option/);
  const other = classifyCallError(grpcError(13, "boom."), site);
  assert.equal(other.message, "Heartbeat to 10.0.0.1:7943 failed (INTERNAL): boom");
});

Deno.test("the HTTP port is recognised from either grpc-js symptom", () => {
  for (
    const error of [
      grpcError(12, "Received HTTP status code 404"),
      grpcError(8, "Received message larger than max (1869881446 vs 4194304)"),
    ]
  ) {
    const classified = classifyCallError(error, { address: "10.0.0.1:7944" });
    assert.equal(classified.code, "NOT_GRPC_ENDPOINT");
    assert.equal(classified.retryable, false);
    assert.match(classified.message, /^10\.0\.0\.1:7944 answered with plain HTTP, not gRPC/);
  }
});

Deno.test("other errors become UNKNOWN and retryable; SDK errors pass through", () => {
  const plain = classifyCallError(new Error("socket hang up"), site);
  assert.equal(plain.code, "UNKNOWN");
  assert.equal(plain.retryable, true);
  assert.equal(plain.grpcCode, undefined);
  assert.equal(plain.message, "Heartbeat to 10.0.0.1:7943 failed: socket hang up");
  const ours = new ShardManagerError("closed", { code: "CLOSED" });
  assert.equal(classifyCallError(ours), ours);
});
