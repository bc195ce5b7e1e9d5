/**
 * The SDKs' one error model: every error the executor, the spectator and the
 * leader selector throw, reject with or emit is a {@linkcode ShardManagerError}
 * with a string `code` from {@linkcode ShardManagerErrorCode}, whether
 * retrying may help (`retryable`), the gRPC status when a call failed, the
 * service's typed detail when it sent one, and the original error as `cause`.
 *
 * @module
 */
import type { ErrorDetail } from "../../wire/error_details.ts";

/**
 * What went wrong, as a stable string to switch on. Codes from the service:
 *
 * - `NAMESPACE_NOT_FOUND`: the service has no such namespace (permanent).
 * - `SHARD_NOT_FOUND`: no such shard in a fixed namespace (permanent).
 * - `SHARD_DRAINED`: an operator drained the shard; nobody may own it until it is undrained.
 * - `EPHEMERAL_SHARD_LIMIT_EXCEEDED`: the namespace holds its maximum of ephemeral shards.
 * - `INVALID_ARGUMENT`: the service refused the request as malformed (permanent).
 * - `PERMISSION_DENIED`, `UNAUTHENTICATED`: the token or certificate is refused (permanent).
 * - `FAILED_PRECONDITION`: e.g. an instance that is not the leader; another address may answer.
 * - `RESOURCE_EXHAUSTED`: the service sheds load; retry later.
 * - `UNAVAILABLE`: the service cannot be reached or is starting; retry.
 * - `DEADLINE_EXCEEDED`: no answer in time; retry.
 * - `UNIMPLEMENTED`: the address serves gRPC but not this API (permanent).
 * - `INTERNAL`, `UNKNOWN`: anything else the service or the channel reported.
 * - `NOT_GRPC_ENDPOINT`: the address answered with plain HTTP (the HTTP port, not the gRPC one).
 *
 * Codes of the SDK itself:
 *
 * - `INVALID_OPTIONS`: an option is wrong (thrown by constructors, before anything is sent).
 * - `INVALID_NAMESPACE`: the namespace exists but cannot serve this use (a leader
 *   selector's namespace must be fixed with `shardNum: 1`).
 * - `TIMEOUT`: `start()` or `waitReady()` gave up after its `timeoutMs`.
 * - `CLOSED`: the object was shut down or closed.
 * - `NOT_READY`: a spectator lookup before the first snapshot.
 * - `SHARD_STOPPED`: a shard's processor must stop (the reason of its signal).
 * - `PROCESSOR_TIMEOUT`: a processor's start or stop took longer than its timeout.
 * - `LEASE_EXPIRED`: a heartbeat answer came after the ownership lease it renewed.
 * - `MISSING_METADATA`: a shard's owner did not report the metadata key asked for.
 * - `ALL_OWNERS_FAILED`: every owner of a shard failed an attempt (`tryOwners`).
 */
export type ShardManagerErrorCode =
  | "NAMESPACE_NOT_FOUND"
  | "SHARD_NOT_FOUND"
  | "SHARD_DRAINED"
  | "EPHEMERAL_SHARD_LIMIT_EXCEEDED"
  | "INVALID_ARGUMENT"
  | "PERMISSION_DENIED"
  | "UNAUTHENTICATED"
  | "FAILED_PRECONDITION"
  | "RESOURCE_EXHAUSTED"
  | "UNAVAILABLE"
  | "DEADLINE_EXCEEDED"
  | "UNIMPLEMENTED"
  | "INTERNAL"
  | "UNKNOWN"
  | "NOT_GRPC_ENDPOINT"
  | "INVALID_OPTIONS"
  | "INVALID_NAMESPACE"
  | "TIMEOUT"
  | "CLOSED"
  | "NOT_READY"
  | "SHARD_STOPPED"
  | "PROCESSOR_TIMEOUT"
  | "LEASE_EXPIRED"
  | "MISSING_METADATA"
  | "ALL_OWNERS_FAILED";

/**
 * Whether errors with each code may succeed when tried again (later, or on
 * another address). The SDKs keep retrying retryable failures by themselves;
 * a non-retryable failure before `start()` or `waitReady()` resolved rejects it.
 */
export const RETRYABLE_CODES: Readonly<Record<ShardManagerErrorCode, boolean>> = {
  NAMESPACE_NOT_FOUND: false,
  SHARD_NOT_FOUND: false,
  SHARD_DRAINED: false,
  EPHEMERAL_SHARD_LIMIT_EXCEEDED: true,
  INVALID_ARGUMENT: false,
  PERMISSION_DENIED: false,
  UNAUTHENTICATED: false,
  FAILED_PRECONDITION: true,
  RESOURCE_EXHAUSTED: true,
  UNAVAILABLE: true,
  DEADLINE_EXCEEDED: true,
  UNIMPLEMENTED: false,
  INTERNAL: true,
  UNKNOWN: true,
  NOT_GRPC_ENDPOINT: false,
  INVALID_OPTIONS: false,
  INVALID_NAMESPACE: false,
  TIMEOUT: true,
  CLOSED: false,
  NOT_READY: true,
  SHARD_STOPPED: false,
  PROCESSOR_TIMEOUT: true,
  LEASE_EXPIRED: true,
  MISSING_METADATA: false,
  ALL_OWNERS_FAILED: true,
};

/** Fields of a {@linkcode ShardManagerError} besides its message. */
export interface ShardManagerErrorOptions {
  /** What went wrong. */
  readonly code: ShardManagerErrorCode;
  /** @default {RETRYABLE_CODES[code]} */
  readonly retryable?: boolean;
  /** The gRPC status code, when a call failed. */
  readonly grpcCode?: number | undefined;
  /** The service's typed detail, when it sent one. */
  readonly details?: ErrorDetail | undefined;
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * The base class of every error of the SDKs.
 *
 * @example Switch on the code
 * ```ts
 * import assert from "node:assert/strict";
 * import { ShardManagerError } from "./errors.ts";
 *
 * const error = new ShardManagerError('Namespace "ordres" not found', { code: "NAMESPACE_NOT_FOUND", grpcCode: 5 });
 * assert.ok(error instanceof Error);
 * assert.equal(error.code, "NAMESPACE_NOT_FOUND");
 * assert.equal(error.retryable, false);
 * assert.equal(error.name, "ShardManagerError");
 * ```
 */
export class ShardManagerError extends Error {
  /** What went wrong; see {@linkcode ShardManagerErrorCode}. */
  readonly code: ShardManagerErrorCode;
  /** Whether trying again (later, or on another address) may succeed. */
  readonly retryable: boolean;
  /** The gRPC status code when a call failed (5 NOT_FOUND, 14 UNAVAILABLE, ...); else undefined. */
  readonly grpcCode: number | undefined;
  /** The service's typed detail, decoded (e.g. `{ type: "NamespaceNotFoundError", namespace }`). */
  readonly details: ErrorDetail | undefined;

  /** An error with `message` (a sentence naming the offending value) and `options`. */
  constructor(message: string, options: ShardManagerErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
    this.retryable = options.retryable ?? RETRYABLE_CODES[options.code];
    this.grpcCode = options.grpcCode;
    this.details = options.details;
  }
}

/**
 * An option is missing or wrong; `option` names it. Thrown by constructors
 * and factories before anything is sent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InvalidOptionsError, ShardManagerError } from "./errors.ts";
 *
 * const error = new InvalidOptionsError("namespace", 'namespace must be a non-empty string, got ""');
 * assert.ok(error instanceof ShardManagerError);
 * assert.equal(error.code, "INVALID_OPTIONS");
 * assert.equal(error.option, "namespace");
 * ```
 */
export class InvalidOptionsError extends ShardManagerError {
  /** The option, e.g. `"addresses"` or `"backoff.maxMs"`. */
  readonly option: string;

  /** `message` says what was wrong and what was given. */
  constructor(option: string, message: string) {
    super(message, { code: "INVALID_OPTIONS" });
    this.option = option;
  }
}
