/**
 * A guard against cross-site requests for the dashboard's actions. A browser
 * cannot send `content-type: application/json` to another origin without a
 * CORS preflight, which this server never approves; and a browser always
 * sends `Origin` with a POST, which must then name this host.
 *
 * @module
 */

/** Why a POST is refused: the HTTP status and a message. */
export interface Refusal {
  /** 415 for a wrong content type, 403 for a foreign origin. */
  readonly status: 403 | 415;
  /** What was wrong, with the offending value. */
  readonly message: string;
}

/**
 * Checks a POST: its content type must be JSON, and its `Origin`, when
 * present, must have the same host as the request. Undefined when it passes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkPost } from "./request_guard.ts";
 *
 * const ok = new Request("http://h:1/x", {
 *   method: "POST",
 *   headers: { "content-type": "application/json", origin: "http://h:1" },
 * });
 * assert.equal(checkPost(ok), undefined);
 * ```
 */
export function checkPost(request: Request): Refusal | undefined {
  const type = request.headers.get("content-type") ?? "";
  if (type.split(";")[0]?.trim().toLowerCase() !== "application/json") {
    return {
      status: 415,
      message: `Actions need content-type: application/json, got ${JSON.stringify(type)}`,
    };
  }
  const origin = request.headers.get("origin");
  if (origin === null) return undefined;
  const host = request.headers.get("host") ?? new URL(request.url).host;
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).host;
  } catch { /* "null" or garbage: refused below */ }
  if (originHost === undefined || originHost.toLowerCase() !== host.toLowerCase()) {
    return {
      status: 403,
      message: `Cross-origin action refused: origin ${JSON.stringify(origin)} is not ${
        JSON.stringify(host)
      }`,
    };
  }
  return undefined;
}
