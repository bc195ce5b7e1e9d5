import assert from "node:assert/strict";
import { TcpProxy } from "./tcp_proxy.ts";

function echoServer(): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.TcpConn>();
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      conn.readable.pipeTo(conn.writable).catch(() => {}).finally(() => conns.delete(conn));
    }
  })().catch(() => {});
  return {
    port: listener.addr.port,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

async function roundTrip(address: string, text: string): Promise<string | null> {
  const [hostname, port] = address.split(":");
  const conn = await Deno.connect({ hostname: hostname!, port: Number(port) });
  try {
    await conn.write(new TextEncoder().encode(text));
    const buffer = new Uint8Array(100);
    const n = await conn.read(buffer);
    return n === null ? null : new TextDecoder().decode(buffer.subarray(0, n));
  } catch {
    return null;
  } finally {
    conn.close();
  }
}

Deno.test("the proxy forwards, refuses while cut, and forwards again once restored", async () => {
  const echo = echoServer();
  const proxy = new TcpProxy(echo.port);
  try {
    assert.equal(await roundTrip(proxy.address, "hello"), "hello");
    proxy.cut();
    assert.equal(await roundTrip(proxy.address, "lost"), null);
    proxy.restore();
    assert.equal(await roundTrip(proxy.address, "back"), "back");
  } finally {
    await proxy.close();
    echo.close();
  }
});

Deno.test("cutting the proxy drops a connection that is open", async () => {
  const echo = echoServer();
  const proxy = new TcpProxy(echo.port);
  const [hostname, port] = proxy.address.split(":");
  const conn = await Deno.connect({ hostname: hostname!, port: Number(port) });
  try {
    await conn.write(new TextEncoder().encode("x"));
    assert.equal(await conn.read(new Uint8Array(10)), 1);
    proxy.cut();
    const after = await conn.read(new Uint8Array(10)).catch(() => null);
    assert.equal(after, null);
  } finally {
    conn.close();
    await proxy.close();
    echo.close();
  }
});
