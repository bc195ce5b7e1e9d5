/**
 * Loopback helpers for tests that start their own servers: free ports, and a
 * bare HTTP probe to tell when a server answers.
 *
 * @module
 */

/**
 * Returns a TCP port on 127.0.0.1 that was free a moment ago.
 *
 * The port is found by binding port 0 and closing the listener, so another
 * process may take it before the caller binds it: callers that start a
 * server should retry with a new port when the bind fails.
 *
 * @example Start a server on a free port
 * ```ts
 * import { freePort } from "./ports.ts";
 *
 * const port = freePort();
 * const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, () => new Response());
 * await server.shutdown();
 * ```
 *
 * @returns A port number between 1024 and 65535.
 */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    return listener.addr.port;
  } finally {
    listener.close();
  }
}

/**
 * Returns `count` distinct free loopback ports (see {@linkcode freePort}).
 *
 * All listeners are held open until every port is chosen, so the ports
 * differ from each other.
 *
 * @example Two ports for one etcd member
 * ```ts
 * import { freePorts } from "./ports.ts";
 *
 * const [client, peer] = freePorts(2);
 * ```
 *
 * @param count How many ports to return; a non-negative integer.
 * @returns The ports, in no particular order.
 */
export function freePorts(count: number): number[] {
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(
      `Cannot find free ports: count must be a non-negative integer, got ${count}`,
    );
  }
  const listeners: Deno.TcpListener[] = [];
  try {
    for (let i = 0; i < count; i++) {
      listeners.push(Deno.listen({ hostname: "127.0.0.1", port: 0 }));
    }
    return listeners.map((listener) => listener.addr.port);
  } finally {
    for (const listener of listeners) listener.close();
  }
}

/**
 * GETs `path` from `127.0.0.1:port` over a bare TCP connection and returns the
 * raw reply (status line, headers and body), or `undefined` when nothing
 * answers within `timeoutMs`. Unlike `fetch` it ignores proxy variables and
 * pools no sockets, so it leaks nothing into Deno's test sanitizers. It stops
 * reading at Content-Length, since some servers (etcd's peer port) keep the
 * connection open.
 *
 * @example Wait for a server's health endpoint
 * ```ts ignore
 * import { httpGet } from "./ports.ts";
 *
 * const reply = await httpGet(2379, "/health");
 * const healthy = reply?.includes('"health":"true"') ?? false;
 * ```
 *
 * @param port The loopback port.
 * @param path The request path, starting with `/`.
 * @param timeoutMs How long to wait for the whole reply. @default {500}
 * @param hostname Where the server listens. @default {"127.0.0.1"}
 * @returns The reply text, or `undefined` on refusal, timeout or a non-HTTP reply.
 */
export async function httpGet(
  port: number,
  path: string,
  timeoutMs = 500,
  hostname = "127.0.0.1",
): Promise<string | undefined> {
  let conn: Deno.TcpConn;
  try {
    conn = await Deno.connect({ hostname, port });
  } catch {
    return undefined;
  }
  const close = () => {
    try {
      conn.close();
    } catch { /* already closed */ }
  };
  const timer = setTimeout(close, timeoutMs);
  try {
    const request = `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`;
    await conn.write(new TextEncoder().encode(request));
    const buffer = new Uint8Array(16 * 1024);
    let reply = new Uint8Array(0);
    for (let n; (n = await conn.read(buffer)) !== null;) {
      const next = new Uint8Array(reply.length + n);
      next.set(reply);
      next.set(buffer.subarray(0, n), reply.length);
      reply = next;
      if (complete(reply)) break;
    }
    const text = new TextDecoder().decode(reply);
    return text.startsWith("HTTP/") ? text : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    close();
  }
}

function complete(reply: Uint8Array): boolean {
  const head = new TextDecoder().decode(reply.subarray(0, 8 * 1024));
  const end = head.indexOf("\r\n\r\n");
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head.slice(0, Math.max(end, 0)))?.[1];
  return end >= 0 && length !== undefined && reply.length >= end + 4 + Number(length);
}
