/**
 * The dashboard's URL space, parsed into routes. Paths outside it are not the
 * dashboard's, so other HTTP routes (health, metrics) can answer them.
 *
 * @module
 */

/** What an operator action does. */
export type ActionKind = "drain" | "undrain";

/** What an operator action acts on. */
export type ActionTarget = "executors" | "shards";

/** A dashboard route with its path parameters. */
export type DashboardRoute =
  | { readonly kind: "page" }
  | { readonly kind: "script"; readonly file: string }
  | { readonly kind: "namespaces" }
  | { readonly kind: "namespace"; readonly namespace: string }
  | { readonly kind: "events"; readonly namespace: string }
  | { readonly kind: "history"; readonly namespace: string }
  | { readonly kind: "trends"; readonly namespace: string }
  | {
    readonly kind: "action";
    readonly namespace: string;
    readonly target: ActionTarget;
    readonly action: ActionKind;
  };

/**
 * Parses `pathname` (as in `URL.pathname`, percent-encoded); undefined when
 * the path is not the dashboard's or a segment is not valid percent-encoding.
 * A trailing slash is accepted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDashboardPath } from "./paths.ts";
 *
 * const route = parseDashboardPath("/api/namespaces/orders%2Feu/shards/drain");
 * assert.equal(route?.kind, "action");
 * assert.equal(route.namespace, "orders/eu");
 * assert.equal(parseDashboardPath("/metrics"), undefined);
 * assert.deepEqual(parseDashboardPath("/browser/app.js"), { kind: "script", file: "app.js" });
 * ```
 */
export function parseDashboardPath(pathname: string): DashboardRoute | undefined {
  if (pathname === "/") return { kind: "page" };
  const script = /^\/browser\/([a-z_]+\.js)$/.exec(pathname);
  if (script) return { kind: "script", file: script[1]! };
  const raw = pathname.replace(/\/$/, "").split("/");
  if (raw[0] !== "" || raw[1] !== "api" || raw[2] !== "namespaces") return undefined;
  const parts = raw.slice(3).map(decode);
  if (parts.some((p) => p === undefined || p === "")) return undefined;
  const [namespace, a, b, ...rest] = parts as string[];
  if (namespace === undefined) return { kind: "namespaces" };
  if (a === undefined) return { kind: "namespace", namespace };
  if (rest.length > 0) return undefined;
  if (a === "events" && b === undefined) return { kind: "events", namespace };
  if (a === "history" && b === undefined) return { kind: "history", namespace };
  if (a === "trends" && b === undefined) return { kind: "trends", namespace };
  if ((a === "executors" || a === "shards") && (b === "drain" || b === "undrain")) {
    return { kind: "action", namespace, target: a, action: b };
  }
  return undefined;
}

/** The one HTTP method a route answers: POST for actions, GET for the rest. */
export function methodOf(route: DashboardRoute): "GET" | "POST" {
  return route.kind === "action" ? "POST" : "GET";
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
