/**
 * Health probes over HTTP for orchestrators: `/healthz` (the process answers)
 * and `/readyz` (the store answers and every namespace cache follows it; 503
 * otherwise), each with the monitor's last finding as JSON.
 *
 * @module
 */
import type { Health } from "../../service/mod.ts";
import type { HttpRoute } from "./http_server.ts";

/** Routes `/healthz` and `/readyz` from `monitor`. */
export function healthRoutes(monitor: Health): HttpRoute {
  return (request, url) => {
    if (request.method !== "GET") return undefined;
    if (url.pathname === "/healthz") return Response.json({ status: "ok" });
    if (url.pathname !== "/readyz") return undefined;
    const status = monitor.status;
    return Response.json(
      { status: status.ready ? "ready" : "not ready", ...status },
      { status: status.ready ? 200 : 503 },
    );
  };
}
