/**
 * A short, stable name for why a call failed, for log lines and metric
 * attributes: the error's string `code` when it has one (the SDK's own
 * errors), else the name of its numeric gRPC status.
 *
 * @module
 */

/** The names of gRPC's status codes, by number (`14` is `"UNAVAILABLE"`). */
export const GRPC_STATUS_NAMES: readonly string[] = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
];

/** Failures that retrying does not fix, by code. */
const PERMANENT: ReadonlySet<string> = new Set([
  "INVALID_ARGUMENT",
  "NOT_FOUND",
  "NAMESPACE_NOT_FOUND",
  "PERMISSION_DENIED",
  "UNAUTHENTICATED",
  "UNIMPLEMENTED",
  "FAILED_PRECONDITION",
  "NOT_GRPC_ENDPOINT",
]);

/**
 * The code of `error`: its `code` if a string, the gRPC status name of a
 * numeric `code`, else its `name` (`"HeartbeatTimeoutError"`), else
 * `"UNKNOWN"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failureCode } from "./failure_code.ts";
 *
 * assert.equal(failureCode(Object.assign(new Error("x"), { code: 14 })), "UNAVAILABLE");
 * assert.equal(failureCode({ code: "NAMESPACE_NOT_FOUND" }), "NAMESPACE_NOT_FOUND");
 * assert.equal(failureCode(new RangeError("x")), "RangeError");
 * assert.equal(failureCode("boom"), "UNKNOWN");
 * ```
 */
export function failureCode(error: unknown): string {
  if (typeof error !== "object" || error === null) return "UNKNOWN";
  const { code, name } = error as { code?: unknown; name?: unknown };
  if (typeof code === "string" && code !== "") return code;
  if (typeof code === "number") return GRPC_STATUS_NAMES[code] ?? `STATUS_${code}`;
  return typeof name === "string" && name !== "" && name !== "Error" ? name : "UNKNOWN";
}

/**
 * Whether retrying cannot fix `error`: its `retryable` field when it is a
 * boolean, else whether its code is one of INVALID_ARGUMENT, NOT_FOUND,
 * PERMISSION_DENIED, UNAUTHENTICATED, UNIMPLEMENTED, FAILED_PRECONDITION (or
 * the SDK's NAMESPACE_NOT_FOUND, NOT_GRPC_ENDPOINT).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPermanent } from "./failure_code.ts";
 *
 * assert.equal(isPermanent({ code: 5 }), true);
 * assert.equal(isPermanent({ code: 14 }), false);
 * assert.equal(isPermanent({ code: "NAMESPACE_NOT_FOUND", retryable: true }), false);
 * ```
 */
export function isPermanent(error: unknown): boolean {
  const retryable = (error as { retryable?: unknown } | null)?.retryable;
  if (typeof retryable === "boolean") return !retryable;
  return PERMANENT.has(failureCode(error));
}

/**
 * The one-line text of `error` for a log line: the first line of its
 * message, without grpc-js's trailing `Resolution note` or a final period.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failureText } from "./failure_code.ts";
 *
 * const error = new Error("14 UNAVAILABLE: No connection established. Last error: x. Resolution note: ");
 * assert.equal(failureText(error), "14 UNAVAILABLE: No connection established. Last error: x");
 * ```
 */
export function failureText(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  const text = typeof message === "string" ? message : String(error);
  return text.replace(/\s*Resolution note:[\s\S]*$/, "").split("\n")[0]!.trim()
    .replace(/\.$/, "");
}
