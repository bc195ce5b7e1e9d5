/**
 * One socket write per turn of the event loop for each HTTP/2 connection of
 * the server, instead of one per frame.
 *
 * Deno's `node:http2` (2.9.x) flushes the connection at once whenever a
 * stream sends its headers, ends its data or sends its trailers, and writes
 * every frame nghttp2 hands out with its own `socket.write`. The socket has
 * `TCP_NODELAY` set, so a unary gRPC answer (HEADERS, DATA, trailing HEADERS)
 * costs up to three write operations and three packets; at thousands of calls
 * a second these writes were the largest item of the server's CPU profile.
 *
 * The coalescer corks the connection's socket at the first flush of a turn
 * and uncorks it in the same turn's check phase (`setImmediate`), after the
 * I/O callbacks and the promise jobs they started: Node's stream machinery
 * then hands every frame queued in between, for all the calls answered in
 * that turn, to the socket's `writev` as one write. The bytes and their
 * order on the wire are exactly those nghttp2 produced; only the number of
 * writes changes, and an answer leaves at most one turn later. A socket that
 * is ended while corked is uncorked by `end()` itself, so nothing queued is
 * lost when a connection closes gracefully.
 *
 * It reaches two private fields of the session (its socket and its nghttp2
 * handle), through `_runtime_internals.ts`, which checks at start that this
 * runtime has them. A session without them is left as it is and reported
 * through `onMissing`, so an upgrade of Deno can slow the server down but not
 * break it; `write_coalescer_test.ts` fails on such a runtime.
 *
 * @module
 */
import { http2ServersOf, sessionWriter } from "./_runtime_internals.ts";

/**
 * Makes `session` write what it has to send once per turn of the event
 * loop (at the turn's `setImmediate`). Returns false,
 * changing nothing, when the session has no socket or handle where this
 * runtime keeps them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { coalesceSessionWrites } from "./write_coalescer.ts";
 *
 * assert.equal(coalesceSessionWrites({}), false); // not an HTTP/2 session of this runtime
 * ```
 */
export function coalesceSessionWrites(session: object): boolean {
  const writer = sessionWriter(session);
  if (writer === undefined) return false;
  const { socket, handle } = writer;
  const send = handle.sendPending;
  let corked = false;
  const uncork = () => {
    corked = false;
    if (!socket.destroyed && socket.writableCorked > 0) socket.uncork();
  };
  handle.sendPending = () => {
    if (!corked && !socket.destroyed) {
      corked = true;
      socket.cork();
      setImmediate(uncork);
    }
    send();
  };
  return true;
}

/**
 * Installs the coalescer on every HTTP/2 server of a bound grpc-js server,
 * for each connection it accepts from now on. `onMissing` is called once per
 * connection the runtime would not let it coalesce. Returns the number of
 * HTTP/2 servers.
 *
 * grpc-js keeps its HTTP/2 servers in a private `http2Servers` map; a grpc-js
 * without it throws here (`install_fast_path.ts` checks first, with
 * `checkRuntimeInternals`), so an upgrade cannot drop the coalescer silently.
 */
export function installWriteCoalescer(server: object, onMissing: () => void): number {
  const servers = http2ServersOf(server, "the write coalescer");
  for (const http2 of servers) {
    http2.prependListener("session", (session: object) => {
      if (!coalesceSessionWrites(session)) onMissing();
    });
  }
  return servers.length;
}
