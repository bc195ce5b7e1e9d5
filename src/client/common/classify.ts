/**
 * The one place where a failed call becomes a {@linkcode ShardManagerError}:
 * a string code, whether to retry, the decoded typed detail and a clean
 * sentence naming the address and the value. The executor's heartbeat loop,
 * the spectator's watch loop and owner lookups, and the leader selector all
 * classify through {@linkcode classifyCallError}.
 *
 * @module
 */
import {
  decodeStatusDetails,
  type ErrorDetail,
  STATUS_DETAILS_KEY,
} from "../../wire/error_details.ts";
import { ShardManagerError, type ShardManagerErrorCode } from "./errors.ts";
import { httpPortMessage, looksLikeHttpAnswer } from "./http_port.ts";
import { GRPC_STATUS_NAMES } from "./failure_code.ts";

/** Where a call went, for the message. */
export interface CallSite {
  /** The service address called, `host:port`. */
  readonly address?: string | undefined;
  /** The namespace asked about. */
  readonly namespace?: string | undefined;
  /** What was attempted, e.g. `"Heartbeat"`, `"Watch"`. @default {"The call"} */
  readonly operation?: string | undefined;
}

/** gRPC status code → SDK code, where no typed detail decides. */
const BY_STATUS: Readonly<Record<number, ShardManagerErrorCode>> = {
  1: "UNAVAILABLE",
  2: "UNKNOWN",
  3: "INVALID_ARGUMENT",
  4: "DEADLINE_EXCEEDED",
  5: "NAMESPACE_NOT_FOUND",
  6: "FAILED_PRECONDITION",
  7: "PERMISSION_DENIED",
  8: "RESOURCE_EXHAUSTED",
  9: "FAILED_PRECONDITION",
  10: "UNAVAILABLE",
  11: "INVALID_ARGUMENT",
  12: "UNIMPLEMENTED",
  13: "INTERNAL",
  14: "UNAVAILABLE",
  15: "INTERNAL",
  16: "UNAUTHENTICATED",
};

const BY_DETAIL: Readonly<Record<ErrorDetail["type"], ShardManagerErrorCode>> = {
  NamespaceNotFoundError: "NAMESPACE_NOT_FOUND",
  ShardNotFoundError: "SHARD_NOT_FOUND",
  ShardDrainedError: "SHARD_DRAINED",
  EphemeralShardLimitExceededError: "EPHEMERAL_SHARD_LIMIT_EXCEEDED",
};

/** What grpc-js says when no connection could be made. */
const UNREACHABLE =
  /No connection established|ECONNREFUSED|Failed to connect|Connection dropped|ENOTFOUND|EHOSTUNREACH|Name resolution failed/i;

/**
 * Turns any error of a call to the service into a {@linkcode ShardManagerError}
 * (one already is is returned as is). gRPC errors keep their status as
 * `grpcCode` and their typed detail, decoded, as `details`; other errors
 * (from a custom transport) become `UNKNOWN`, retryable.
 *
 * @example A misspelt namespace
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyCallError } from "./classify.ts";
 *
 * const grpcError = Object.assign(new Error('5 NOT_FOUND: Namespace "ordres" not found'), {
 *   code: 5,
 *   details: 'Namespace "ordres" not found',
 * });
 * const error = classifyCallError(grpcError, { address: "127.0.0.1:7943", namespace: "ordres" });
 * assert.equal(error.code, "NAMESPACE_NOT_FOUND");
 * assert.equal(error.retryable, false);
 * assert.equal(error.grpcCode, 5);
 * assert.match(error.message, /Namespace "ordres" not found at 127\.0\.0\.1:7943/);
 * ```
 *
 * @example The HTTP port given instead of the gRPC one
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyCallError } from "./classify.ts";
 *
 * const error = classifyCallError(
 *   { code: 12, details: "Received HTTP status code 404", message: "12 UNIMPLEMENTED: Received HTTP status code 404" },
 *   { address: "127.0.0.1:8080" },
 * );
 * assert.equal(error.code, "NOT_GRPC_ENDPOINT");
 * assert.match(error.message, /looks like the HTTP port/);
 * ```
 */
export function classifyCallError(error: unknown, site: CallSite = {}): ShardManagerError {
  if (error instanceof ShardManagerError) return error;
  const status = (error as { code?: unknown } | null)?.code;
  const operation = site.operation ?? "The call";
  const at = site.address === undefined ? "" : ` to ${site.address}`;
  if (typeof status !== "number") {
    const text = error instanceof Error ? error.message : String(error);
    return new ShardManagerError(`${operation}${at} failed: ${clean(text)}`, {
      code: "UNKNOWN",
      cause: error,
    });
  }
  const raw = (error as { details?: unknown }).details;
  const details = clean(
    typeof raw === "string" ? raw : error instanceof Error ? error.message : String(raw),
  );
  const detail = typedDetail(error);
  const fields = { grpcCode: status, details: detail, cause: error };
  const address = site.address ?? "the service";
  const theService = site.address === undefined ? "the service" : `the service at ${site.address}`;
  const service = `T${theService.slice(1)}`;
  const found = site.address === undefined ? "" : ` at ${site.address}`;
  if (looksLikeHttpAnswer(status, details)) {
    return new ShardManagerError(httpPortMessage(address), {
      code: "NOT_GRPC_ENDPOINT",
      ...fields,
    });
  }
  let code = detail === undefined ? BY_STATUS[status] ?? "UNKNOWN" : BY_DETAIL[detail.type];
  if (status === 5 && detail === undefined && !/namespace/i.test(details)) code = "SHARD_NOT_FOUND";
  const name = GRPC_STATUS_NAMES[status] ?? String(status);
  const message = (() => {
    switch (code) {
      case "NAMESPACE_NOT_FOUND":
        return `${details || `Namespace "${site.namespace}" not found`}${found}: ` +
          "check the name, or create the namespace first (smctl namespace create -f FILE)";
      case "UNAVAILABLE":
        return UNREACHABLE.test(details)
          ? `Cannot reach ${theService} (${unreachableReason(details)})`
          : `${service} is unavailable: ${details}`;
      case "DEADLINE_EXCEEDED":
        return `${operation}${at} got no answer in time (${details || name})`;
      case "UNAUTHENTICATED":
        return `${service} refused the call as not authenticated: ${details}; ` +
          "pass the token option (or a client certificate through tls)";
      case "PERMISSION_DENIED":
        return `${service} refused the call: ${details}`;
      default:
        return `${operation}${at} failed (${name}): ${details || "no details"}`;
    }
  })();
  return new ShardManagerError(message, { code, ...fields });
}

/** The typed detail in a gRPC error's trailers; undefined when absent or undecodable. */
function typedDetail(error: unknown): ErrorDetail | undefined {
  const metadata = (error as { metadata?: { get?: (key: string) => unknown[] } } | null)?.metadata;
  const bytes = metadata?.get?.(STATUS_DETAILS_KEY)?.[0];
  if (!(bytes instanceof Uint8Array)) return undefined;
  try {
    return decodeStatusDetails(bytes).detail;
  } catch {
    return undefined; // a malformed trailer leaves the code and message to go by
  }
}

/** grpc-js's text without its "Resolution note:" tail and trailing punctuation. */
function clean(text: string): string {
  return text.replace(/\s*Resolution note:.*$/s, "").replace(/^\d+ [A-Z_]+: /, "")
    .replace(/[.:\s]+$/, "");
}

function unreachableReason(details: string): string {
  if (/ECONNREFUSED/.test(details)) return "connection refused";
  if (/ENOTFOUND|Name resolution failed/i.test(details)) return "cannot resolve the host name";
  if (/EHOSTUNREACH/.test(details)) return "host unreachable";
  if (/ETIMEDOUT/.test(details)) return "connection timed out";
  return details;
}
