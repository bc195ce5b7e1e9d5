/**
 * Recognising an HTTP server where a gRPC one was expected: the usual
 * mistake of giving the service's HTTP port (metrics, dashboard) to a
 * client. Shared by the SDKs and smctl.
 *
 * @module
 */

/** The gRPC port the service listens on when `server.grpcAddress` is not set. */
export const DEFAULT_GRPC_PORT = 7943;

/**
 * True when a failed gRPC call's status `code` and `details` show that an
 * HTTP server, not gRPC, answered:
 *
 * - an HTTP/2 server answers a gRPC path with a plain status: grpc-js reports
 *   `12 UNIMPLEMENTED` (or another code) with "Received HTTP status code 404";
 * - an HTTP/1 server's answer is read as a gRPC frame whose length is four
 *   printable ASCII bytes: `8 RESOURCE_EXHAUSTED` "Received message larger
 *   than max (1869881446 vs 4194304)" (1869881446 is "ot f" of "not found").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { looksLikeHttpAnswer } from "./http_port.ts";
 *
 * assert.equal(looksLikeHttpAnswer(8, "Received message larger than max (1869881446 vs 4194304)"), true);
 * assert.equal(looksLikeHttpAnswer(12, "Received HTTP status code 404"), true);
 * assert.equal(looksLikeHttpAnswer(8, "Received message larger than max (5000000 vs 4194304)"), false);
 * assert.equal(looksLikeHttpAnswer(14, "No connection established"), false);
 * ```
 */
export function looksLikeHttpAnswer(code: number, details: string): boolean {
  if (/Received HTTP status code \d+/i.test(details)) return true;
  if (code !== 8) return false;
  const match = details.match(/received message larger than max \((\d+) vs/i);
  if (!match) return false;
  const n = Number(match[1]);
  const bytes = [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  return n > 0xffffff && bytes.every((b) => b >= 0x20 && b < 0x7f);
}

/**
 * The sentence that explains an HTTP answer at `address`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { httpPortMessage } from "./http_port.ts";
 *
 * assert.match(httpPortMessage("127.0.0.1:8080"), /looks like the HTTP port .* 7943 by default/);
 * ```
 */
export function httpPortMessage(address: string): string {
  return `${address} answered with plain HTTP, not gRPC: that looks like the HTTP port ` +
    "(metrics, dashboard; server.httpAddress). Use the service's gRPC port " +
    `(server.grpcAddress, ${DEFAULT_GRPC_PORT} by default)`;
}
