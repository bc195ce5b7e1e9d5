/**
 * The HTTP side of an instance: Prometheus metrics, health probes and the
 * dashboard. Routes are plain functions from a `Request` to a `Response`, or
 * `undefined` when the path is not theirs, tried in order.
 *
 * @module
 */
import type { Logger } from "../../core/logger.ts";

/** Handles a request, or returns undefined to let the next route try. */
export type HttpRoute = (
  request: Request,
  url: URL,
) => Response | undefined | Promise<Response | undefined>;

/** A running HTTP server. */
export interface HttpServer {
  /** The bound address, `host:port` (the real port when 0 was asked). */
  readonly address: string;
  /** Stops accepting requests and ends open ones (event streams included). */
  stop(): Promise<void>;
}

/**
 * Serves `routes` on `address` (`host:port`). Unknown paths get 404; a route
 * that throws gets a 500 and an error log line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { silentLogger } from "../../core/logger.ts";
 * import { startHttpServer } from "./http_server.ts";
 *
 * const server = await startHttpServer("127.0.0.1:0", silentLogger, [
 *   (_req, url) => url.pathname === "/ping" ? new Response("pong") : undefined,
 * ]);
 * const res = await fetch(`http://${server.address}/ping`);
 * assert.equal(await res.text(), "pong");
 * await server.stop();
 * ```
 */
export function startHttpServer(
  address: string,
  logger: Logger,
  routes: readonly HttpRoute[],
): Promise<HttpServer> {
  const colon = address.lastIndexOf(":");
  const hostname = address.slice(0, colon).replace(/^\[|\]$/g, "");
  const port = Number(address.slice(colon + 1));
  const stop = new AbortController();
  const listening = Promise.withResolvers<Deno.NetAddr>();
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname,
      port,
      signal: stop.signal,
      onListen: (addr) => listening.resolve(addr),
      onError: (error) => {
        logger.error("http request failed", { error });
        return new Response("internal error\n", { status: 500 });
      },
    }, async (request) => {
      const url = new URL(request.url);
      for (const route of routes) {
        const response = await route(request, url);
        if (response) return response;
      }
      return new Response("not found\n", { status: 404 });
    });
  } catch (error) {
    return Promise.reject(
      new Error(`cannot listen for HTTP on ${address}: ${(error as Error).message}`, {
        cause: error,
      }),
    );
  }
  return listening.promise.then((addr) => ({
    address: `${addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname}:${addr.port}`,
    stop: async () => {
      stop.abort();
      await server.finished;
    },
  }));
}
