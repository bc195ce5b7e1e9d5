import assert from "node:assert/strict";
import { connect, createServer, type ServerHttp2Stream } from "node:http2";
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

async function timedRoundTrips(address: string, count: number): Promise<number[]> {
  const [hostname, port] = address.split(":");
  const conn = await Deno.connect({ hostname: hostname!, port: Number(port) });
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      await conn.write(new TextEncoder().encode(`m${i};`));
      const buffer = new Uint8Array(100);
      let got = "";
      while (!got.endsWith(";")) {
        const n = await conn.read(buffer);
        if (n === null) throw new Error("closed");
        got += new TextDecoder().decode(buffer.subarray(0, n));
      }
      assert.equal(got, `m${i};`);
      times.push(performance.now() - t0);
    }
  } finally {
    conn.close();
  }
  return times;
}

Deno.test("a degraded proxy delays each direction by delay ± jitter, and heals", async () => {
  const echo = echoServer();
  const proxy = new TcpProxy(echo.port);
  try {
    proxy.degrade({ delayMs: 100, jitterMs: 50 });
    const slow = await timedRoundTrips(proxy.address, 6);
    // Two one-way delays of 50-150 ms each (plus scheduling).
    for (const t of slow) assert.ok(t >= 95 && t < 450, `round trip ${t} ms`);
    proxy.heal();
    const fast = await timedRoundTrips(proxy.address, 6);
    for (const t of fast) assert.ok(t < 60, `healed round trip ${t} ms`);
  } finally {
    await proxy.close();
    echo.close();
  }
});

Deno.test("jitter never reorders the bytes of a connection", async () => {
  const echo = echoServer();
  const proxy = new TcpProxy(echo.port);
  const [hostname, port] = proxy.address.split(":");
  const conn = await Deno.connect({ hostname: hostname!, port: Number(port) });
  try {
    proxy.degrade({ delayMs: 30, jitterMs: 30 });
    let sent = "";
    for (let i = 0; i < 40; i++) {
      const piece = `<${i}>`;
      sent += piece;
      await conn.write(new TextEncoder().encode(piece));
      await new Promise((r) => setTimeout(r, 2));
    }
    let got = "";
    const buffer = new Uint8Array(1_000);
    while (got.length < sent.length) {
      const n = await conn.read(buffer);
      if (n === null) break;
      got += new TextDecoder().decode(buffer.subarray(0, n));
    }
    assert.equal(got, sent);
  } finally {
    conn.close();
    await proxy.close();
    echo.close();
  }
});

Deno.test("loss stalls a connection; a reset closes it; both are counted", async () => {
  const echo = echoServer();
  let draws = 0;
  // Draw order per chunk: reset?, loss?, stall length.
  const script = [0.9, 0.0, 1.0, 0.9, 0.9, 0.9, 0.9];
  const proxy = new TcpProxy(echo.port, 0, { random: () => script[draws++] ?? 0.9 });
  try {
    proxy.degrade({ lossRate: 0.5, stallMs: [300, 400], resetRate: 0.5 });
    const [stalled] = await timedRoundTrips(proxy.address, 1);
    assert.ok(stalled! >= 390 && stalled! < 900, `stalled round trip ${stalled} ms`);
    assert.equal(proxy.stats.stalls, 1);
    proxy.heal();
    const resetting = new TcpProxy(echo.port, 0, { random: () => 0 }); // every draw hits
    try {
      resetting.degrade({ resetRate: 0.01 });
      assert.equal(await roundTrip(resetting.address, "gone"), null);
      assert.equal(resetting.stats.resets, 1);
    } finally {
      await resetting.close();
    }
  } finally {
    await proxy.close();
    echo.close();
  }
});

Deno.test("the proxy counts the gRPC calls it carries", async () => {
  const server = createServer();
  server.on("stream", (stream: ServerHttp2Stream) => {
    setTimeout(() => {
      stream.respond({ ":status": 200, "content-type": "application/grpc" });
      stream.end();
    }, 150);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const proxy = new TcpProxy(port);
  const client = connect(`http://${proxy.address}`);
  try {
    const call = () =>
      new Promise<void>((resolve, reject) => {
        const req = client.request({ ":method": "POST", ":path": "/x.Y/Z" });
        req.on("response", () => {});
        req.on("end", resolve);
        req.on("error", reject);
        req.resume();
        req.end();
      });
    const calls = [call(), call(), call()];
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(proxy.stats.callsInFlight, 3);
    await Promise.all(calls);
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual([proxy.stats.callsStarted, proxy.stats.callsInFlight], [3, 0]);
  } finally {
    client.close();
    await proxy.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
