import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { describeFailure, fromGrpcFailure, SmctlError, UsageError } from "./errors.ts";
import type { ExitCode } from "./exit_codes.ts";

const site = { address: "127.0.0.1:7943", method: "GetShardOwner", timeoutMs: 5_000 };

Deno.test("fromGrpcFailure maps each status to its exit code and keeps the service's message", () => {
  const cases: [number, string, ExitCode, string][] = [
    [status.INVALID_ARGUMENT, "Invalid shard_key: must not be empty", 2, "invalid shard_key"],
    [status.NOT_FOUND, 'Namespace "x" not found', 3, 'namespace "x" not found'],
    [status.FAILED_PRECONDITION, 'Shard "3" in namespace "ns" is drained', 5, 'shard "3"'],
    [status.DEADLINE_EXCEEDED, "Deadline exceeded", 4, "no answer from 127.0.0.1:7943"],
    [status.UNAVAILABLE, "No connection established. Last error: x", 4, "cannot reach"],
    [status.UNAVAILABLE, "etcd is down", 4, "service unavailable: etcd is down"],
    [status.INTERNAL, "Internal error; see the service logs", 1, "GetShardOwner failed"],
  ];
  for (const [code, details, exitCode, start] of cases) {
    const error = fromGrpcFailure({ code, details }, site);
    assert.equal(error.exitCode, exitCode, details);
    assert.ok(error.message.startsWith(start), `${error.message} starts with ${start}`);
  }
});

Deno.test("an unreachable service gets a short reason instead of grpc-js's diagnostics", () => {
  const details =
    "No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1. Resolution note: ";
  assert.equal(
    fromGrpcFailure({ code: status.UNAVAILABLE, details }, site).message,
    "cannot reach the service at 127.0.0.1:7943 (connection refused)",
  );
});

Deno.test("a deadline message names the timeout", () => {
  const error = fromGrpcFailure({ code: status.DEADLINE_EXCEEDED, details: "" }, site);
  assert.match(error.message, /within 5s/);
});

Deno.test("describeFailure prints expected errors as one line and hides stacks of bugs", () => {
  assert.deepEqual(describeFailure(new UsageError("bad")), { message: "bad", exitCode: 2 });
  assert.deepEqual(describeFailure(new SmctlError("gone", 3)), { message: "gone", exitCode: 3 });
  const bug = describeFailure(new TypeError("x is undefined"));
  assert.equal(bug.exitCode, 1);
  assert.equal(bug.message, "unexpected error: x is undefined");
  assert.match(describeFailure(new TypeError("boom"), true).message, /TypeError: boom\n\s+at /);
});

Deno.test("a gRPC call answered by the HTTP port is named as such", () => {
  const site = { address: "127.0.0.1:7944", method: "ListNamespaces", timeoutMs: 1_000 };
  const http = fromGrpcFailure(
    { code: 8, details: "Received message larger than max (1869881446 vs 4194304)" },
    site,
  );
  assert.match(http.message, /that looks like the HTTP port/);
  assert.equal(http.exitCode, 2);
  const big = fromGrpcFailure(
    { code: 8, details: "Received message larger than max (5000000 vs 4194304)" },
    site,
  );
  assert.doesNotMatch(big.message, /HTTP port/);
});
