import assert from "node:assert/strict";
import { silentLogger } from "../../core/logger.ts";
import { startHttpServer } from "./http_server.ts";

Deno.test("http server tries routes in order, answers 404 and 500 for the rest", async () => {
  const server = await startHttpServer("127.0.0.1:0", silentLogger, [
    (_req, url) => url.pathname === "/a" ? new Response("a") : undefined,
    (_req, url) => {
      if (url.pathname === "/boom") throw new Error("boom");
      return undefined;
    },
    (_req, url) => url.pathname.startsWith("/a") ? new Response("second") : undefined,
  ]);
  try {
    const get = async (path: string) => {
      const res = await fetch(`http://${server.address}${path}`);
      return [res.status, await res.text()];
    };
    assert.deepEqual(await get("/a"), [200, "a"]);
    assert.deepEqual(await get("/ab"), [200, "second"]);
    assert.deepEqual(await get("/nope"), [404, "not found\n"]);
    assert.deepEqual(await get("/boom"), [500, "internal error\n"]);
  } finally {
    await server.stop();
  }
});

Deno.test("http server reports a port already in use clearly", async () => {
  const first = await startHttpServer("127.0.0.1:0", silentLogger, []);
  try {
    await assert.rejects(
      startHttpServer(first.address, silentLogger, []),
      /cannot listen for HTTP on 127\.0\.0\.1:\d+/,
    );
  } finally {
    await first.stop();
  }
});
