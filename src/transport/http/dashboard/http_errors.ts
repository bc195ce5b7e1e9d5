/**
 * Domain errors as HTTP answers: `{error: message}` with the status that
 * matches the gRPC mapping (INVALID_ARGUMENT → 400, NOT_FOUND → 404,
 * FAILED_PRECONDITION and ABORTED → 409, RESOURCE_EXHAUSTED → 429,
 * UNAVAILABLE → 503).
 *
 * @module
 */
import { type ErrorKind, errorKind } from "../../../core/errors.ts";

const STATUSES: Readonly<Record<ErrorKind, number>> = {
  invalid_argument: 400,
  not_found: 404,
  already_exists: 409,
  failed_precondition: 409,
  aborted: 409,
  resource_exhausted: 429,
  unavailable: 503,
  unauthenticated: 401,
  permission_denied: 403,
};

/**
 * The HTTP status of a domain error; undefined for anything else (a bug,
 * which the HTTP server logs and answers with 500).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { httpStatusOf } from "./http_errors.ts";
 * import { NamespaceNotFoundError } from "../../../core/errors.ts";
 *
 * assert.equal(httpStatusOf(new NamespaceNotFoundError("x")), 404);
 * assert.equal(httpStatusOf(new Error("bug")), undefined);
 * ```
 */
export function httpStatusOf(error: unknown): number | undefined {
  const kind = errorKind(error);
  return kind === undefined ? undefined : STATUSES[kind];
}

/**
 * A JSON error answer, `{"error": message}`, never cached.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonError } from "./http_errors.ts";
 *
 * const response = jsonError(403, "Actions are disabled");
 * assert.equal(response.status, 403);
 * ```
 */
export function jsonError(status: number, message: string, headers: HeadersInit = {}): Response {
  return Response.json({ error: message }, {
    status,
    headers: { "cache-control": "no-store", ...Object.fromEntries(new Headers(headers)) },
  });
}

/**
 * Answers a domain error as JSON; rethrows anything else so that the HTTP
 * server logs it as a bug.
 */
export function errorResponse(error: unknown): Response {
  const status = httpStatusOf(error);
  if (status === undefined) throw error;
  return jsonError(status, (error as Error).message);
}
