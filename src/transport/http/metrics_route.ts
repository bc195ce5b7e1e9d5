/**
 * `GET /metrics`: the Prometheus text exposition.
 *
 * @module
 */
import type { HttpRoute } from "./http_server.ts";

/** What the route renders. */
export interface MetricsSource {
  /** The exposition text. */
  render(): Promise<string>;
  /** Its content type. */
  readonly contentType: string;
}

/** Serves `source` on `GET /metrics`. */
export function metricsRoute(source: MetricsSource): HttpRoute {
  return async (request, url) => {
    if (request.method !== "GET" || url.pathname !== "/metrics") return undefined;
    return new Response(await source.render(), {
      headers: { "content-type": source.contentType },
    });
  };
}
