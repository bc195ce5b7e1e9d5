/**
 * The HTTP/2 servers behind a bound grpc-js server, for the transport's
 * runtime workarounds (`closed_stream_guard.ts`, `write_coalescer.ts`,
 * `read_moderator.ts`), and the private parts of their sessions.
 *
 * @module
 */
import type { EventEmitter } from "node:events";

/**
 * The `node:http2` servers of `server`, from grpc-js's private
 * `http2Servers` map. A grpc-js without it throws, naming `user`, so an
 * upgrade cannot drop a workaround silently.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EventEmitter } from "node:events";
 * import { http2ServersOf } from "./_http2_servers.ts";
 *
 * const http2 = new EventEmitter();
 * assert.deepEqual(http2ServersOf({ http2Servers: new Map([[http2, {}]]) }, "a test"), [http2]);
 * assert.throws(() => http2ServersOf({}, "a test"), TypeError);
 * ```
 */
export function http2ServersOf(server: object, user: string): EventEmitter[] {
  const servers = (server as { http2Servers?: Map<EventEmitter, unknown> }).http2Servers;
  if (!(servers instanceof Map)) {
    throw new TypeError(`grpc-js Server has no http2Servers map: ${user} needs it`);
  }
  return [...servers.keys()];
}

/**
 * A private field of a `node:http2` session, found by its symbol's
 * description (`"socket"`, `"kHandle"`); undefined when this runtime keeps
 * no such field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sessionField } from "./_http2_servers.ts";
 *
 * assert.equal(sessionField({ [Symbol("socket")]: 1 }, "socket"), 1);
 * assert.equal(sessionField({}, "socket"), undefined);
 * ```
 */
export function sessionField(session: object, description: string): unknown {
  const symbol = Object.getOwnPropertySymbols(session).find((s) => s.description === description);
  return symbol === undefined ? undefined : (session as Record<symbol, unknown>)[symbol];
}
