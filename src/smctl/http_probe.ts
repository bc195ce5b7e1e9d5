/**
 * A last look at an address whose gRPC call failed oddly: does a plain
 * HTTP/1.1 server answer there? Then `--address` names an HTTP port (the
 * service's metrics and dashboard, or another web server), not gRPC.
 *
 * @module
 */
import { monotonicClock, type TimerClock } from "../client/common/clock.ts";

/**
 * True when `address` (`host:port`) answers a plain `GET /` with an HTTP/1
 * status line within `timeoutMs` of `clock`'s time (default `monotonicClock`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answersHttp } from "./http_probe.ts";
 *
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("hi"));
 * assert.equal(await answersHttp(`127.0.0.1:${server.addr.port}`), true);
 * await server.shutdown();
 * ```
 */
export async function answersHttp(
  address: string,
  timeoutMs = 1_000,
  clock: TimerClock = monotonicClock,
): Promise<boolean> {
  const colon = address.lastIndexOf(":");
  const hostname = address.slice(0, colon).replace(/^\[(.*)\]$/, "$1");
  const port = Number(address.slice(colon + 1));
  if (!Number.isInteger(port) || port < 1 || port > 65535) return false;
  let conn: Deno.TcpConn | undefined;
  const timer = clock.setTimeout(() => conn?.close(), timeoutMs);
  try {
    conn = await Deno.connect({ hostname, port });
    await conn.write(
      new TextEncoder().encode(`GET / HTTP/1.1\r\nHost: ${address}\r\nConnection: close\r\n\r\n`),
    );
    const buffer = new Uint8Array(16);
    let got = 0;
    while (got < 12) {
      const n = await conn.read(buffer.subarray(got));
      if (n === null) break;
      got += n;
    }
    return /^HTTP\/1\.[01] \d{3}/.test(new TextDecoder().decode(buffer.subarray(0, got)));
  } catch {
    return false;
  } finally {
    clock.clearTimeout(timer);
    try {
      conn?.close();
    } catch { /* closed by the timer */ }
  }
}
