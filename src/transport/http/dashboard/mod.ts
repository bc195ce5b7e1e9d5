/**
 * The live dashboard served by every instance over HTTP:
 *
 * - `GET /`: the page (HTML; see `page.ts`);
 * - `GET /browser/<file>.js`: the page's code, ES modules from `browser/`
 *   (see `scripts.ts`);
 * - `GET /api/namespaces`: this instance's id, whether actions are allowed,
 *   and the configured namespaces;
 * - reads are open; one that sends `authorization: Bearer <token>` (under
 *   `security.auth`) is checked like the gRPC API's reads, per namespace;
 * - `GET /api/namespaces/:ns`: the JSON picture of a namespace (`state.ts`);
 * - `GET /api/namespaces/:ns/events`: server-sent `state` events with that
 *   picture, driven by the spectator fan-out and refreshed every second;
 * - `GET /api/namespaces/:ns/history?sinceMs=T`: its history (`history_route.ts`);
 * - `GET /api/namespaces/:ns/trends`: each executor's shards and load over
 *   the last hour (`executor_samples.ts`);
 * - `POST /api/namespaces/:ns/executors/{drain,undrain}` with `{executorId}`
 *   or `{selector}` (and `reason`), `POST /api/namespaces/:ns/shards/{drain,undrain}`
 *   with `{shardKeys}`: only when `server.dashboardActions` is true.
 *
 * @module
 */
import type { HttpRoute } from "../http_server.ts";
import { readJsonBody, runAction } from "./actions.ts";
import { stateEvents } from "./event_stream.ts";
import type { ExecutorSamples } from "./executor_samples.ts";
import { historyResponse } from "./history_route.ts";
import { errorResponse, httpStatusOf, jsonError } from "./http_errors.ts";
import type { Authorizer } from "../../../security/authorizer.ts";
import { type Clock, systemClock } from "../../../core/clock.ts";
import type { Logger } from "../../../core/logger.ts";
import { LeaderCache } from "./leaders.ts";
import { dashboardPage } from "./page.ts";
import { type DashboardRoute, methodOf, parseDashboardPath } from "./paths.ts";
import { checkPost } from "./request_guard.ts";
import { readBrowserScripts, scriptResponse } from "./scripts.ts";
import { type DashboardBackend, namespaceInfo, namespaceSnapshot } from "./snapshot.ts";

export type { DashboardBackend } from "./snapshot.ts";
export { ExecutorSamples } from "./executor_samples.ts";
export { runExecutorSampler } from "./executor_sampler.ts";
export type { DashboardState } from "./state.ts";

/** Options of {@linkcode dashboardRoutes}. */
export interface DashboardOptions {
  /** Allow drain and undrain from the page (`server.dashboardActions`). */
  readonly allowActions: boolean;
  /** Longest time between two events of a stream. @default {1000} */
  readonly refreshMs?: number;
  /**
   * When set (`security.auth`), an action needs `authorization: Bearer <token>`
   * of an identity with the operator role for that namespace (the same rules
   * as the gRPC API, `namespaces:` included). Read-only pages stay open.
   * @default {undefined} actions need no token
   */
  readonly authorizer?: Authorizer;
  /** Where refused actions are logged. @default {undefined} not logged */
  readonly logger?: Logger;
  /** The executors' samples of the last hour. @default {undefined} no trends (empty answers) */
  readonly samples?: Pick<ExecutorSamples, "trends">;
  /** Whose time the leader cache, history reads and event streams run on. @default {systemClock} */
  readonly clock?: Clock;
}

/** Why actions are refused when they are off. */
export const ACTIONS_DISABLED =
  "Dashboard actions are disabled on this instance; set server.dashboardActions: true in its configuration to drain and undrain from the dashboard";

const JSON_HEADERS = { "cache-control": "no-store" };

/**
 * Routes of the dashboard; paths outside it are left to other routes.
 *
 * @example
 * ```ts ignore
 * import { dashboardRoutes } from "./mod.ts";
 * import { startHttpServer } from "../http_server.ts";
 *
 * await startHttpServer("127.0.0.1:7944", logger, [dashboardRoutes(manager, { allowActions: false })]);
 * ```
 */
export function dashboardRoutes(manager: DashboardBackend, options: DashboardOptions): HttpRoute {
  const clock = options.clock ?? systemClock;
  const leaders = new LeaderCache(() => manager.routing.listLeaders(), { clock });
  const { allowActions, refreshMs = 1_000, authorizer, logger, samples } = options;
  let page: ReturnType<typeof dashboardPage> | undefined;
  let scripts: ReturnType<typeof readBrowserScripts> | undefined;

  /** Checks `method` for the request's token; a refusal as a response, or the namespaces it sees. */
  const decide = async (
    request: Request,
    method: string,
    namespace?: string,
  ): Promise<Response | ((namespace: string) => boolean)> => {
    const authorization = request.headers.get("authorization");
    const decision = await authorizer!.check({
      method,
      ...(namespace === undefined ? {} : { namespace }),
      ...(authorization === null ? {} : { authorization }),
    });
    if (decision.allowed) return decision.sees;
    logger?.warn("dashboard call denied", {
      method,
      principal: decision.principal,
      reason: decision.error.message,
    });
    const status = httpStatusOf(decision.error) ?? 403;
    return jsonError(status, decision.error.message, {
      "www-authenticate": status === 401 ? "Bearer" : 'Bearer error="insufficient_scope"',
    });
  };
  /** Reads stay open; one that sends a token gets the same rules as the gRPC API. */
  const readCheck = (request: Request, method: string, namespace?: string) =>
    authorizer && request.headers.has("authorization")
      ? decide(request, method, namespace)
      : Promise.resolve(() => true);

  const handle = async (request: Request, route: DashboardRoute): Promise<Response> => {
    if (route.kind !== "page" && route.kind !== "script" && route.kind !== "action") {
      const checked = route.kind === "namespaces"
        ? await readCheck(request, "ListNamespaces")
        : await readCheck(request, "GetNamespaceState", route.namespace);
      if (checked instanceof Response) return checked;
      if (route.kind === "namespaces") {
        return Response.json({
          instanceId: manager.instanceId,
          allowActions,
          namespaces: manager.routing.listNamespaces().filter((n) => checked(n.name)),
        }, { headers: JSON_HEADERS });
      }
    }
    switch (route.kind) {
      case "page": {
        const { html, headers } = await (page ??= dashboardPage());
        return new Response(html, { headers });
      }
      case "script":
        return scriptResponse(await (scripts ??= readBrowserScripts()), route.file) ??
          jsonError(404, `The dashboard has no script ${JSON.stringify(route.file)}`);
      case "namespace":
        return Response.json(
          await namespaceSnapshot(manager, route.namespace, { leaders, allowActions }),
          { headers: JSON_HEADERS },
        );
      case "history": {
        const ns = namespaceInfo(manager, route.namespace).name;
        const since = Number(new URL(request.url).searchParams.get("sinceMs") ?? "0");
        return await historyResponse(manager, ns, Number.isFinite(since) ? since : 0, { clock });
      }
      case "trends": {
        const ns = namespaceInfo(manager, route.namespace).name;
        const trends = samples?.trends(ns) ??
          {
            intervalMs: 0,
            windowMs: 0,
            maxExecutors: 0,
            executorsSeen: 0,
            times: [],
            executors: [],
          };
        return Response.json({ namespace: ns, ...trends }, { headers: JSON_HEADERS });
      }
      case "events": {
        const ns = namespaceInfo(manager, route.namespace).name;
        const body = stateEvents(
          (signal) => manager.routing.watchNamespace(ns, signal),
          (picture) =>
            namespaceSnapshot(manager, ns, { leaders, allowActions, version: picture.version }),
          // Deno cancels the body when the client disconnects, which ends the
          // watch. (Reading request.signal instead would make Deno 2 print a
          // non-JSON warning on stderr when the stream ends normally.)
          { refreshMs, clock },
        );
        return new Response(body, {
          headers: {
            "content-type": "text/event-stream; charset=utf-8",
            "cache-control": "no-store",
            "x-accel-buffering": "no",
          },
        });
      }
      case "action": {
        if (!allowActions) return jsonError(403, ACTIONS_DISABLED);
        const refusal = checkPost(request);
        if (refusal) return jsonError(refusal.status, refusal.message);
        if (authorizer) {
          const method = `${route.action === "drain" ? "Drain" : "Undrain"}${
            route.target === "shards" ? "Shards" : "Executors"
          }`;
          const checked = await decide(request, method, route.namespace);
          if (checked instanceof Response) return checked;
        }
        namespaceInfo(manager, route.namespace);
        const body = await readJsonBody(request);
        const answer = await runAction(manager, { ...route, body });
        return Response.json(answer, { headers: JSON_HEADERS });
      }
    }
  };

  return async (request, url) => {
    const route = parseDashboardPath(url.pathname);
    if (!route) return undefined;
    const method = methodOf(route);
    if (request.method !== method && !(method === "GET" && request.method === "HEAD")) {
      return jsonError(405, `Use ${method} for ${url.pathname}`, { allow: method });
    }
    try {
      return await handle(request, route);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
