/**
 * The etcd client's failures in plain words. Its messages name its own
 * machinery ("Execution prevented because the circuit breaker is open",
 * "14 UNAVAILABLE: No connection established"), which tells an operator
 * reading `/readyz` or smctl nothing; every message this adapter passes on
 * goes through {@linkcode plainStoreError}.
 *
 * @module
 */

const PLAIN: readonly (readonly [RegExp, (m: RegExpMatchArray) => string])[] = [
  [
    /circuit breaker is open/i,
    () =>
      "store unreachable: etcd did not answer the last requests, so they are held back for a few seconds before the next try",
  ],
  [
    /ECONNREFUSED\s*([\w.:[\]-]*)/,
    (m) => `store unreachable: etcd refused the connection${at(m[1])} (is it running?)`,
  ],
  [/ENOTFOUND\s*([\w.-]*)/, (m) => `store unreachable: cannot resolve etcd's host name${at(m[1])}`],
  [
    /ETIMEDOUT|DEADLINE_EXCEEDED|deadline exceeded/i,
    () => "store unreachable: etcd did not answer in time",
  ],
  [
    /UNAVAILABLE|No connection established|GRPCConnectFailed/i,
    () => "store unreachable: no connection to etcd",
  ],
  [
    /UNAUTHENTICATED|invalid auth token|authentication failed/i,
    () => "store refused the credentials: check the etcd user and password",
  ],
  [
    /PERMISSION_DENIED|permission denied/i,
    () => "store refused the request: the etcd user may not use this key prefix",
  ],
  [
    /lease not found|requested lease not found/i,
    () => "the store no longer knows the session's lease (it expired)",
  ],
];

function at(where: string | undefined): string {
  return where ? ` at ${where}` : "";
}

/**
 * A readable message from anything the etcd client threw.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plainStoreError } from "./plain_error.ts";
 *
 * assert.match(
 *   plainStoreError(new Error("Execution prevented because the circuit breaker is open")),
 *   /^store unreachable: etcd did not answer/,
 * );
 * assert.equal(plainStoreError(new Error("key too large")), "key too large");
 * ```
 */
export function plainStoreError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  for (const [pattern, plain] of PLAIN) {
    const match = text.match(pattern);
    if (match) return plain(match);
  }
  return text;
}
