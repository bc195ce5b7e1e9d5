/**
 * A guard for HTTP/2 streams that are already gone when the server sees
 * them. Deno's `node:http2` can hand the server a new stream after its
 * client has closed the connection (a client that sends requests and hangs
 * up at once). For a stream on an unknown method, or with a wrong content
 * type, grpc-js answers at once with `stream.respond()`, which throws
 * `ERR_HTTP2_INVALID_STREAM` ("The stream has been destroyed") on such a
 * stream; thrown from an event listener, that ended the process. Every other
 * answer grpc-js sends checks first whether the call was cancelled.
 *
 * The guard listens for new streams before grpc-js does and, on a stream that
 * is already destroyed or closed, turns `respond` into a no-op: the answer
 * had nowhere to go. `tests/runtime_disconnect_test.ts` reproduces the crash.
 *
 * @module
 */
import { http2ServersOf } from "./_runtime_internals.ts";

/** The part of an HTTP/2 server stream the guard touches. */
interface StreamLike {
  readonly destroyed: boolean;
  readonly closed: boolean;
  respond: (...args: unknown[]) => void;
}

/**
 * Makes `respond` a no-op on `stream` when it is already destroyed or closed;
 * returns true when it did.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { guardClosedStream } from "./closed_stream_guard.ts";
 *
 * const gone = {
 *   destroyed: true,
 *   closed: true,
 *   respond: () => {
 *     throw new Error("The stream has been destroyed");
 *   },
 * };
 * assert.equal(guardClosedStream(gone), true);
 * gone.respond(); // no longer throws
 * ```
 */
export function guardClosedStream(stream: StreamLike): boolean {
  if (!stream.destroyed && !stream.closed) return false;
  stream.respond = () => {};
  return true;
}

/**
 * Installs the guard on every HTTP/2 server of a bound grpc-js server, ahead
 * of grpc-js's own stream listener. `onGuarded` is called for each stream
 * the guard caught. Returns the number of HTTP/2 servers guarded.
 *
 * grpc-js keeps its HTTP/2 servers in a private `http2Servers` map; a grpc-js
 * without it throws here (`install_fast_path.ts` checks first, with
 * `checkRuntimeInternals`), so an upgrade cannot drop the guard silently.
 */
export function installClosedStreamGuard(server: object, onGuarded: () => void): number {
  const servers = http2ServersOf(server, "the closed-stream guard");
  for (const http2 of servers) {
    http2.prependListener("stream", (stream: StreamLike) => {
      if (guardClosedStream(stream)) onGuarded();
    });
  }
  return servers.length;
}
