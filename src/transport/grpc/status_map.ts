/**
 * The one place where domain errors become gRPC status codes. A caller's
 * mistake never maps to INTERNAL.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { type ErrorKind, errorKind, ShardManagerError } from "../../core/errors.ts";

/** A gRPC error object as `@grpc/grpc-js` handlers pass to their callback. */
export interface GrpcError {
  /** The status code. */
  readonly code: grpc.status;
  /** The message (the `details` of the status). */
  readonly details: string;
}

const CODES: Readonly<Record<ErrorKind, grpc.status>> = {
  invalid_argument: grpc.status.INVALID_ARGUMENT,
  not_found: grpc.status.NOT_FOUND,
  failed_precondition: grpc.status.FAILED_PRECONDITION,
  resource_exhausted: grpc.status.RESOURCE_EXHAUSTED,
  unavailable: grpc.status.UNAVAILABLE,
  aborted: grpc.status.ABORTED,
  unauthenticated: grpc.status.UNAUTHENTICATED,
  permission_denied: grpc.status.PERMISSION_DENIED,
};

/**
 * Maps an error to a gRPC status; unknown errors (bugs) become INTERNAL with
 * a generic message, never a stack trace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toGrpcError } from "./status_map.ts";
 * import { NamespaceNotFoundError } from "../../core/errors.ts";
 * assert.equal(toGrpcError(new NamespaceNotFoundError("x")).code, 5);
 * ```
 */
export function toGrpcError(error: unknown): GrpcError {
  const kind = errorKind(error);
  if (kind) return { code: CODES[kind], details: (error as Error).message };
  if (error instanceof ShardManagerError) {
    return { code: grpc.status.UNKNOWN, details: error.message };
  }
  return { code: grpc.status.INTERNAL, details: "Internal error; see the service logs" };
}

/** True when `error` is a bug rather than an expected domain outcome. */
export function isUnexpected(error: unknown): boolean {
  return toGrpcError(error).code === grpc.status.INTERNAL;
}
