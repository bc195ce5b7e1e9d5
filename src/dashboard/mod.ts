/**
 * The live dashboard served by every instance over HTTP.
 *
 * @module
 */
import type { ShardManager } from "../service/shard_manager.ts";
import type { HttpRoute } from "../transport/http/http_server.ts";

/** Options of {@linkcode dashboardRoutes}. */
export interface DashboardOptions {
  /** Allow drain and undrain from the page (`server.dashboardActions`). */
  readonly allowActions: boolean;
}

/** Routes of the dashboard (placeholder until the dashboard lands). */
export function dashboardRoutes(_manager: ShardManager, _options: DashboardOptions): HttpRoute {
  return () => undefined;
}
