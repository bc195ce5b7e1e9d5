/**
 * smctl's errors: each carries its exit code, and every failure a command can
 * meet (a gRPC status, a usage mistake, a commander parse error) becomes one
 * line for stderr and one code, in {@linkcode describeFailure}.
 *
 * @module
 */
import { status } from "@grpc/grpc-js";
import { formatDuration } from "./duration.ts";
import { ExitCode } from "./exit_codes.ts";
import { looksLikeHttpAnswer } from "../client/common/http_port.ts";

/** An expected failure: printed as one line, never with a stack trace. */
export class SmctlError extends Error {
  /** The process exit code. */
  readonly exitCode: ExitCode;
  /** A one-line message and the exit code it maps to. */
  constructor(message: string, exitCode: ExitCode, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** The command line was wrong: a missing flag, a bad value, conflicting flags. */
export class UsageError extends SmctlError {
  /** Says what was wrong and how to fix it. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.USAGE, options);
  }
}

/** The shape of an error from `@grpc/grpc-js` (a `ServiceError`). */
export interface GrpcFailure {
  /** The status code. */
  readonly code: number;
  /** The status message. */
  readonly details: string;
}

/**
 * True when `error` looks like a gRPC `ServiceError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isGrpcFailure } from "./errors.ts";
 *
 * assert.ok(isGrpcFailure({ code: 5, details: "x" }));
 * ```
 */
export function isGrpcFailure(error: unknown): error is GrpcFailure {
  return typeof error === "object" && error !== null &&
    typeof (error as GrpcFailure).code === "number" &&
    typeof (error as GrpcFailure).details === "string";
}

/** Where a failed call went, for the message. */
export interface CallSite {
  /** The service address. */
  readonly address: string;
  /** The RPC, e.g. `GetShardOwner`. */
  readonly method: string;
  /** The call's deadline, ms. */
  readonly timeoutMs: number;
}

/** What grpc-js says when a connection could not be made (nothing reached the service). */
export const UNREACHABLE: RegExp =
  /No connection established|ECONNREFUSED|Failed to connect|Connection dropped|ENOTFOUND|EHOSTUNREACH|Name resolution failed/i;

/**
 * Turns a gRPC failure into an {@linkcode SmctlError} with the service's own
 * message (which names the offending value) and the matching exit code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fromGrpcFailure } from "./errors.ts";
 *
 * const error = fromGrpcFailure(
 *   { code: 5, details: 'Namespace "x" not found' },
 *   { address: "127.0.0.1:7943", method: "GetNamespaceState", timeoutMs: 10_000 },
 * );
 * assert.equal(error.message, 'namespace "x" not found');
 * assert.equal(error.exitCode, 3);
 * ```
 */
export function fromGrpcFailure(failure: GrpcFailure, site: CallSite): SmctlError {
  const details = lowerFirst(failure.details.trim() || `status ${failure.code}`);
  if (looksLikeHttpAnswer(failure.code, details)) return httpPortError(site.address, failure);
  switch (failure.code) {
    case status.INVALID_ARGUMENT:
      return new SmctlError(details, ExitCode.USAGE, { cause: failure });
    case status.NOT_FOUND:
      return new SmctlError(details, ExitCode.NOT_FOUND, { cause: failure });
    case status.FAILED_PRECONDITION:
      return new SmctlError(details, ExitCode.FAILED_PRECONDITION, { cause: failure });
    case status.DEADLINE_EXCEEDED:
      return new SmctlError(
        `no answer from ${site.address} to ${site.method} within ${
          formatDuration(site.timeoutMs)
        } (raise --timeout?)`,
        ExitCode.UNAVAILABLE,
        { cause: failure },
      );
    case status.UNAVAILABLE:
      return new SmctlError(
        UNREACHABLE.test(details)
          ? `cannot reach the service at ${site.address} (${unreachableReason(details)})`
          : `service unavailable: ${details}`,
        ExitCode.UNAVAILABLE,
        { cause: failure },
      );
    case status.RESOURCE_EXHAUSTED:
      return new SmctlError(
        `${site.method} failed (RESOURCE_EXHAUSTED): ${details}`,
        ExitCode.ERROR,
        {
          cause: failure,
        },
      );
    case status.UNAUTHENTICATED:
      return new SmctlError(
        `${site.method} refused, not authenticated: ${details} ` +
          "(pass --token or set SM_TOKEN, or use --cert-file and --key-file)",
        ExitCode.ERROR,
        { cause: failure },
      );
    case status.UNIMPLEMENTED:
      return new SmctlError(
        `the service at ${site.address} does not implement ${site.method}: ${details}`,
        ExitCode.ERROR,
        { cause: failure },
      );
    default:
      return new SmctlError(
        `${site.method} failed (${status[failure.code] ?? failure.code}): ${details}`,
        ExitCode.ERROR,
        { cause: failure },
      );
  }
}

/**
 * The error for an address where HTTP, not gRPC, answered.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { httpPortError } from "./errors.ts";
 *
 * assert.match(httpPortError("127.0.0.1:7944").message, /that looks like the HTTP port/);
 * ```
 */
export function httpPortError(address: string, cause?: unknown): SmctlError {
  return new SmctlError(
    `${address} answered with a plain HTTP response, not gRPC: that looks like the HTTP port ` +
      "(metrics, dashboard; server.httpAddress). Pass the gRPC port " +
      "(server.grpcAddress, 7943 by default) to --address",
    ExitCode.USAGE,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * The line to print (without the `smctl: ` prefix) and the exit code for any
 * error. Unexpected errors (bugs) keep their stack only when `debug` is set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeFailure, UsageError } from "./errors.ts";
 *
 * const { message, exitCode } = describeFailure(new UsageError("missing --namespace"));
 * assert.equal(message, "missing --namespace");
 * assert.equal(exitCode, 2);
 * ```
 */
export function describeFailure(
  error: unknown,
  debug = false,
): { message: string; exitCode: ExitCode } {
  if (error instanceof SmctlError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof Error) {
    const text = debug && error.stack ? error.stack : error.message;
    return { message: `unexpected error: ${text}`, exitCode: ExitCode.ERROR };
  }
  return { message: `unexpected error: ${String(error)}`, exitCode: ExitCode.ERROR };
}

/** A short reason from grpc-js's long "No connection established. Last error: ..." text. */
function unreachableReason(details: string): string {
  if (/ECONNREFUSED/.test(details)) return "connection refused";
  if (/ENOTFOUND|Name resolution failed/i.test(details)) return "cannot resolve the host name";
  if (/EHOSTUNREACH/.test(details)) return "host unreachable";
  if (/ETIMEDOUT/.test(details)) return "connection timed out";
  return details.replace(/\s*Resolution note:.*$/s, "").replace(/[.:\s]+$/, "");
}

function lowerFirst(text: string): string {
  // "Namespace "x" not found" reads better after "smctl: "; keep acronyms ("TLS ...").
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
