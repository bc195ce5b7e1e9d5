/**
 * The one place where domain errors become gRPC statuses. A caller's mistake
 * never maps to INTERNAL. Errors that upstream Cadence's server answers with
 * typed details (an unknown namespace or shard, the ephemeral shard cap) carry
 * the same detail here, and a drained shard carries this server's
 * `ShardDrainedError`: a `google.rpc.Status` in the `grpc-status-details-bin`
 * trailer (see `src/wire/error_details.ts`). Code and message are the same
 * with or without it.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { Buffer } from "node:buffer";
import {
  EphemeralShardLimitExceededError,
  type ErrorKind,
  errorKind,
  NamespaceNotFoundError,
  ShardDrainedError,
  ShardManagerError,
  ShardNotFoundError,
} from "../../core/errors.ts";
import {
  encodeStatusDetails,
  type ErrorDetail,
  STATUS_DETAILS_KEY,
} from "../../wire/error_details.ts";

/** A gRPC error object as `@grpc/grpc-js` handlers pass to their callback or emit on a stream. */
export interface GrpcError {
  /** The status code. */
  readonly code: grpc.status;
  /** The message (the `details` of the status). */
  readonly details: string;
  /** The same message: grpc-js sends `details`, and logs and tools read `message`. */
  readonly message: string;
  /** Trailers: `grpc-status-details-bin` for errors with a typed detail. */
  readonly metadata?: grpc.Metadata;
}

const CODES: Readonly<Record<ErrorKind, grpc.status>> = {
  invalid_argument: grpc.status.INVALID_ARGUMENT,
  not_found: grpc.status.NOT_FOUND,
  already_exists: grpc.status.ALREADY_EXISTS,
  failed_precondition: grpc.status.FAILED_PRECONDITION,
  resource_exhausted: grpc.status.RESOURCE_EXHAUSTED,
  unavailable: grpc.status.UNAVAILABLE,
  aborted: grpc.status.ABORTED,
  unauthenticated: grpc.status.UNAUTHENTICATED,
  permission_denied: grpc.status.PERMISSION_DENIED,
};

/**
 * The typed detail a domain error is answered with, if any.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorDetailOf } from "./status_map.ts";
 * import { ShardNotFoundError } from "../../core/errors.ts";
 *
 * assert.deepEqual(errorDetailOf(new ShardNotFoundError("ns", "9")), {
 *   type: "ShardNotFoundError",
 *   namespace: "ns",
 *   shardKey: "9",
 * });
 * ```
 */
export function errorDetailOf(error: unknown): ErrorDetail | undefined {
  if (error instanceof NamespaceNotFoundError) {
    return { type: "NamespaceNotFoundError", namespace: error.namespace };
  }
  if (error instanceof ShardNotFoundError) {
    return { type: "ShardNotFoundError", namespace: error.namespace, shardKey: error.shardKey };
  }
  if (error instanceof ShardDrainedError) {
    return { type: "ShardDrainedError", namespace: error.namespace, shardKey: error.shardKey };
  }
  if (error instanceof EphemeralShardLimitExceededError) {
    return {
      type: "EphemeralShardLimitExceededError",
      namespace: error.namespace,
      maxLimit: error.maxLimit,
      currentValue: error.currentValue,
    };
  }
  return undefined;
}

function grpcError(code: grpc.status, message: string, detail?: ErrorDetail): GrpcError {
  if (detail === undefined) return { code, details: message, message };
  const metadata = new grpc.Metadata();
  metadata.set(STATUS_DETAILS_KEY, Buffer.from(encodeStatusDetails(code, message, detail)));
  return { code, details: message, message, metadata };
}

/**
 * Maps an error to a gRPC status, with its typed detail as a trailer when it
 * has one; unknown errors (bugs) become INTERNAL with a generic message,
 * never a stack trace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toGrpcError } from "./status_map.ts";
 * import { NamespaceNotFoundError } from "../../core/errors.ts";
 *
 * const error = toGrpcError(new NamespaceNotFoundError("x"));
 * assert.equal(error.code, 5);
 * assert.equal(error.details, 'Namespace "x" not found');
 * assert.equal(error.metadata?.get("grpc-status-details-bin").length, 1);
 * ```
 */
export function toGrpcError(error: unknown): GrpcError {
  const kind = errorKind(error);
  if (kind) return grpcError(CODES[kind], (error as Error).message, errorDetailOf(error));
  if (error instanceof ShardManagerError) return grpcError(grpc.status.UNKNOWN, error.message);
  return grpcError(grpc.status.INTERNAL, "Internal error; see the service logs");
}

/** True when `error` is a bug rather than an expected domain outcome. */
export function isUnexpected(error: unknown): boolean {
  return errorKind(error) === undefined && !(error instanceof ShardManagerError);
}
