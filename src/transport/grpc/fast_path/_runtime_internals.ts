/**
 * Every reach of the gRPC transport into grpc-js's or Deno's internals, in
 * one place: the transport's runtime workarounds (the Heartbeat lane, the
 * closed-stream guard, the write coalescer, the read moderator) ask this file,
 * and nothing else in the transport names a private field.
 *
 * What they rely on, and who needs it:
 *
 * - grpc-js's private `Server.http2Servers` map, for the `node:http2` servers
 *   of a bound server: all four.
 * - grpc-js's one `"stream"` listener on each of them, which the Heartbeat
 *   lane puts itself in front of.
 * - Deno's `node:http2` session fields, found by their symbols' descriptions:
 *   `socket` (corkable) and `kHandle` (nghttp2's handle, with
 *   `sendPending`): the write coalescer.
 * - The socket's native handle (`net.Socket#_handle`, with `readStart` and
 *   `readStop`): the read moderator.
 *
 * {@linkcode checkRuntimeInternals} checks all of it once at start (the
 * session and socket fields on a throwaway loopback connection) and says
 * which workarounds can run; `install_fast_path.ts` logs what is missing and leaves the
 * calls to plain grpc-js. Each accessor also checks what it returns, so a
 * connection unlike the probe's is left alone too.
 *
 * @module
 */
import type { EventEmitter } from "node:events";
import * as http2 from "node:http2";

/**
 * The `node:http2` servers of `server`, from grpc-js's private
 * `http2Servers` map. A grpc-js without it throws, naming `user`, so an
 * upgrade cannot drop a workaround silently ({@linkcode checkRuntimeInternals}
 * finds this before anything is installed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EventEmitter } from "node:events";
 * import { http2ServersOf } from "./_runtime_internals.ts";
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
 * Puts `take` in front of grpc-js's one `"stream"` listener on `http2`:
 * a stream `take` returns true for is its own, every other stream goes to
 * grpc-js unchanged. Throws, naming `user`, when `http2` has not exactly one
 * stream listener (grpc-js's).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EventEmitter } from "node:events";
 * import { interceptGrpcStreams } from "./_runtime_internals.ts";
 *
 * const http2 = new EventEmitter();
 * const seen: string[] = [];
 * http2.on("stream", (path: string) => seen.push(`grpc-js ${path}`));
 * interceptGrpcStreams(http2, (path: string) => path === "/lane" && seen.push("lane") > 0, "a test");
 * http2.emit("stream", "/lane");
 * http2.emit("stream", "/other");
 * assert.deepEqual(seen, ["lane", "grpc-js /other"]);
 * ```
 */
export function interceptGrpcStreams<S, H>(
  http2: EventEmitter,
  take: (stream: S, headers: H) => boolean,
  user: string,
): void {
  const listeners = http2.listeners("stream");
  if (listeners.length !== 1) {
    throw new TypeError(
      `${user} expects grpc-js's one stream listener, found ${listeners.length}`,
    );
  }
  const grpcjs = listeners[0] as (stream: S, headers: H, ...rest: unknown[]) => void;
  http2.removeListener("stream", grpcjs);
  http2.on("stream", (stream: S, headers: H, ...rest: unknown[]) => {
    if (!take(stream, headers)) grpcjs(stream, headers, ...rest);
  });
}

/** The parts of a `net.Socket` the write coalescer uses. */
export interface CorkableSocket {
  cork(): void;
  uncork(): void;
  readonly writableCorked: number;
  readonly destroyed: boolean;
}

/** The part of a session's nghttp2 handle the write coalescer wraps. */
export interface PendingSender {
  sendPending: () => void;
}

/** The native reading switch of a socket (`net.Socket#_handle`). */
export interface NativeReader {
  readStart(): unknown;
  readStop(): unknown;
}

/** A private field of a session, found by its symbol's description. */
function sessionField(session: object, description: string): unknown {
  const symbol = Object.getOwnPropertySymbols(session).find((s) => s.description === description);
  return symbol === undefined ? undefined : (session as Record<symbol, unknown>)[symbol];
}

/**
 * The socket of a `node:http2` session (Deno keeps it under a symbol
 * described `"socket"`); undefined when this runtime keeps no such field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sessionSocket } from "./_runtime_internals.ts";
 *
 * assert.equal(sessionSocket({ [Symbol("socket")]: 1 }), 1);
 * assert.equal(sessionSocket({}), undefined);
 * ```
 */
export function sessionSocket(session: object): unknown {
  return sessionField(session, "socket");
}

/**
 * The socket of a session when it can be corked, with the nghttp2 handle
 * whose `sendPending` flushes the session; undefined when either is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sessionWriter } from "./_runtime_internals.ts";
 *
 * assert.equal(sessionWriter({ [Symbol("socket")]: {} }), undefined);
 * ```
 */
export function sessionWriter(
  session: object,
): { readonly socket: CorkableSocket; readonly handle: PendingSender } | undefined {
  const socket = sessionSocket(session) as Partial<CorkableSocket> | null | undefined;
  const handle = sessionField(session, "kHandle") as Partial<PendingSender> | null | undefined;
  if (typeof socket?.cork !== "function" || typeof socket.uncork !== "function") return undefined;
  if (typeof handle?.sendPending !== "function") return undefined;
  return { socket: socket as CorkableSocket, handle: handle as PendingSender };
}

/**
 * The native handle of a socket, whose reads can be stopped and started
 * (`net.Socket#_handle`); undefined when it has none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nativeReader } from "./_runtime_internals.ts";
 *
 * const handle = { readStart() {}, readStop() {} };
 * assert.equal(nativeReader({ _handle: handle }), handle);
 * assert.equal(nativeReader({}), undefined);
 * ```
 */
export function nativeReader(socket: unknown): NativeReader | undefined {
  const handle = (socket as { _handle?: Partial<NativeReader> } | null | undefined)?._handle;
  return typeof handle?.readStart === "function" && typeof handle.readStop === "function"
    ? handle as NativeReader
    : undefined;
}

/** What {@linkcode checkRuntimeInternals} found: which workarounds can run. */
export interface RuntimeSupport {
  /** grpc-js's `http2Servers` map: the closed-stream guard (and the base of the others). */
  readonly closedStreamGuard: boolean;
  /** ... and grpc-js's one stream listener on each server: the Heartbeat lane. */
  readonly heartbeatLane: boolean;
  /** ... and a session's corkable socket and nghttp2 handle: the write coalescer. */
  readonly writeCoalescer: boolean;
  /** ... and a socket's native handle: the read moderator. */
  readonly readModerator: boolean;
  /** What is missing, one sentence each, naming what falls back to plain grpc-js. */
  readonly missing: readonly string[];
}

/** Options of {@linkcode checkRuntimeInternals}. */
export interface CheckOptions {
  /** Whether the Heartbeat lane is wanted; if not, its needs are not listed as missing. @default {true} */
  readonly heartbeatLane?: boolean;
  /** Whether the read moderator is wanted; if not, its needs are not listed as missing. @default {true} */
  readonly readModerator?: boolean;
  /**
   * What a session looks like on this runtime; by default one loopback
   * connection's (see {@linkcode probeSession}), checked once per process.
   */
  readonly session?: () => Promise<{ readonly writes: boolean; readonly reads: boolean }>;
}

/**
 * Checks, before any workaround is installed on the bound grpc-js `server`,
 * everything they rely on. Never throws: what is missing is in `missing`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkRuntimeInternals } from "./_runtime_internals.ts";
 *
 * const support = await checkRuntimeInternals({});
 * assert.equal(support.heartbeatLane, false);
 * assert.match(support.missing[0]!, /http2Servers/);
 * ```
 */
export async function checkRuntimeInternals(
  server: object,
  options: CheckOptions = {},
): Promise<RuntimeSupport> {
  const missing: string[] = [];
  let servers: EventEmitter[];
  try {
    servers = http2ServersOf(server, "the transport's workarounds");
  } catch {
    missing.push(
      "this grpc-js Server has no http2Servers map: every call goes through plain grpc-js, " +
        "without the Heartbeat lane, the closed-stream guard, the write coalescer or the read " +
        "moderator (see src/transport/grpc/fast_path/_runtime_internals.ts)",
    );
    return {
      closedStreamGuard: false,
      heartbeatLane: false,
      writeCoalescer: false,
      readModerator: false,
      missing,
    };
  }
  const counts = servers.map((s) => s.listenerCount("stream"));
  const heartbeatLane = counts.every((count) => count === 1);
  if (!heartbeatLane && (options.heartbeatLane ?? true)) {
    missing.push(
      `grpc-js's HTTP/2 servers have ${counts.join(", ")} stream listeners, not one each: ` +
        "Heartbeat calls go through plain grpc-js, without the Heartbeat lane " +
        "(see src/transport/grpc/fast_path/_runtime_internals.ts)",
    );
  }
  const session = await (options.session ?? probeSession)();
  if (!session.writes) {
    missing.push(
      "this Deno's HTTP/2 sessions keep their socket elsewhere: answers are written frame by " +
        "frame, which costs the server CPU (see src/transport/grpc/fast_path/write_coalescer.ts)",
    );
  }
  if (!session.reads && (options.readModerator ?? true)) {
    missing.push(
      "this Deno's sockets have no native handle to pause: busy connections are read call by " +
        "call, which costs the server CPU (see src/transport/grpc/fast_path/read_moderator.ts)",
    );
  }
  return {
    closedStreamGuard: true,
    heartbeatLane,
    writeCoalescer: session.writes,
    readModerator: session.reads,
    missing,
  };
}

let probed: Promise<{ readonly writes: boolean; readonly reads: boolean }> | undefined;

/**
 * What a `node:http2` server session of this runtime offers the workarounds,
 * found once per process on a throwaway connection over loopback: `writes`
 * when {@linkcode sessionWriter} finds its socket and handle, `reads` when
 * {@linkcode nativeReader} finds the socket's native handle. A probe that
 * cannot connect reports neither.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { probeSession } from "./_runtime_internals.ts";
 *
 * assert.deepEqual(await probeSession(), { writes: true, reads: true }); // Deno 2.9
 * ```
 */
export function probeSession(): Promise<{ readonly writes: boolean; readonly reads: boolean }> {
  return probed ??= new Promise((resolve) => {
    const server = http2.createServer();
    let client: http2.ClientHttp2Session | undefined;
    const finish = (found: { writes: boolean; reads: boolean }) => {
      client?.destroy();
      server.close();
      resolve(found);
    };
    server.once("session", (session: object) => {
      finish({
        writes: sessionWriter(session) !== undefined,
        reads: nativeReader(sessionSocket(session)) !== undefined,
      });
    });
    server.once("error", () => finish({ writes: false, reads: false }));
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      client = http2.connect(`http://127.0.0.1:${port}`);
      client.on("error", () => finish({ writes: false, reads: false }));
    });
  });
}
