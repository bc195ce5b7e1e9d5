/**
 * The sharded counter's HTTP API, served with `Deno.serve`:
 *
 * - `POST /shards/{shard}/counters/{key}` adds 1 to counter `key` of
 *   `shard`: `200 {"value": n, "served": "warm" | "cold"}` when this process
 *   serves the shard (`cold`: the shard was still loading and the answer
 *   waited for it), `421 Misdirected Request` when it does not.
 * - `GET /health`: `200 {"serving": [...], "loading": [...]}`.
 *
 * @module
 */
import type { CounterShards } from "./counter_shards.ts";

/** Options of {@linkcode serveCounter}. */
export interface ServeCounterOptions {
  /** Address to listen on. @default {"127.0.0.1"} */
  readonly hostname?: string;
  /** Port; 0 picks a free one. @default {0} */
  readonly port?: number;
  /** Stops the server when it aborts. */
  readonly signal?: AbortSignal;
}

const PATH = /^\/shards\/([^/]+)\/counters\/([^/]+)$/;

/**
 * Serves `shards` over HTTP; the server's `addr` says where.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CounterShards } from "./counter_shards.ts";
 * import { serveCounter } from "./http.ts";
 *
 * await using server = serveCounter(new CounterShards());
 * const response = await fetch(`http://127.0.0.1:${server.addr.port}/shards/0/counters/a`, {
 *   method: "POST",
 * });
 * assert.equal(response.status, 421);
 * await response.body?.cancel();
 * ```
 */
export function serveCounter(
  shards: CounterShards,
  options: ServeCounterOptions = {},
): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    onListen: () => {},
    ...(options.signal ? { signal: options.signal } : {}),
  }, async (request) => {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/health") {
      return Response.json({ serving: shards.serving, loading: shards.loading });
    }
    const match = PATH.exec(url.pathname);
    if (match === null) {
      return Response.json({ error: `No route ${url.pathname}` }, { status: 404 });
    }
    if (request.method !== "POST") {
      return Response.json({ error: `Use POST, not ${request.method}` }, { status: 405 });
    }
    const shard = decodeURIComponent(match[1]!), key = decodeURIComponent(match[2]!);
    const served = await shards.increment(shard, key);
    if (served.state === "not-serving") {
      return Response.json({ error: `This node does not serve shard ${shard}` }, { status: 421 });
    }
    return Response.json({ value: served.value, served: served.state });
  });
}
