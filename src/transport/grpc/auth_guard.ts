/**
 * Authorization in front of the gRPC handlers: each call's identity (bearer
 * token or verified client certificate) is checked by the
 * {@linkcode Authorizer} before the handler runs, so a denied call changes
 * nothing. Denials are logged and counted like any failed call. A call about
 * one namespace (its request's `namespace`) is checked against the namespaces
 * the caller's roles are limited to; the answers of calls that list
 * namespaces (`ListNamespaces`, `ListLeaders`) keep only those it may see.
 *
 * @module
 */
import type * as grpc from "@grpc/grpc-js";
import { status as Status } from "@grpc/grpc-js";
import type { Authorizer, CallInfo, NamespaceFilter, PeerCertificate } from "../../security/mod.ts";
import type { HandlerContext } from "./handlers.ts";
import { toGrpcError } from "./status_map.ts";
import { auditRefusal, rememberCaller } from "./operator_calls.ts";

type AnyHandler = (call: never, callback?: never) => void;
type Call = grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>;

/**
 * Wraps every handler of `handlers` (a service of `definition`) with the
 * authorizer's check.
 *
 * @example
 * ```ts ignore
 * server.addService(shardDistributorService, guardHandlers(
 *   shardDistributorService, routingHandlers(manager, context), authorizer, context,
 * ));
 * ```
 */
export function guardHandlers<H extends object>(
  definition: grpc.ServiceDefinition,
  handlers: H,
  authorizer: Authorizer,
  context: HandlerContext,
): H {
  const guarded: Record<string, AnyHandler> = {};
  for (const [method, handler] of Object.entries(handlers as Record<string, AnyHandler>)) {
    const streaming = definition[method]?.responseStream ?? false;
    guarded[method] = (call: never, callback?: never) => {
      const started = performance.now();
      const info = callInfo(method, call as Call);
      authorizer.check(info).then((decision) => {
        if (decision.allowed) {
          rememberCaller(call as object, decision.principal);
          const filter = LIST_FILTERS[method];
          if (!filter || streaming) return handler(call, callback as never);
          const filtered = (error: unknown, value?: unknown) =>
            (callback as unknown as (e: unknown, v?: unknown) => void)(
              error,
              value === undefined ? value : filter(value, decision.sees),
            );
          return handler(call, filtered as never);
        }
        context.logger.warn("call denied", {
          method,
          principal: decision.principal,
          peer: (call as Call).getPeer(),
          reason: decision.error.message,
        });
        const error = toGrpcError(decision.error);
        auditRefusal(context.audit, method, (call as Call).request, decision.principal, error);
        context.observer.rpc?.(
          method,
          Status[error.code] ?? String(error.code),
          performance.now() - started,
        );
        if (streaming) (call as grpc.ServerWritableStream<unknown, unknown>).emit("error", error);
        else (callback as unknown as (e: unknown) => void)(error);
      }).catch((error) => {
        // A bug in the check: refuse rather than hang or let the call through.
        context.logger.error("authorization failed", { method, error });
        const failure = { code: Status.INTERNAL, details: "Authorization failed; see the logs" };
        if (streaming) (call as grpc.ServerWritableStream<unknown, unknown>).emit("error", failure);
        else (callback as unknown as (e: unknown) => void)(failure);
      });
    };
  }
  return guarded as H;
}

type ListFilter = (response: unknown, sees: NamespaceFilter) => unknown;

/** Answers that list namespaces, cut down to what the caller may see. */
const LIST_FILTERS: Readonly<Record<string, ListFilter>> = {
  ListNamespaces: (response, sees) => {
    const { namespaces = [], ...rest } = response as { namespaces?: { name: string }[] };
    return { ...rest, namespaces: namespaces.filter((n) => sees(n.name)) };
  },
  ListLeaders: (response, sees) => {
    const { leaders = [], ...rest } = response as { leaders?: { namespace: string }[] };
    return { ...rest, leaders: leaders.filter((l) => sees(l.namespace)) };
  },
};

function callInfo(method: string, call: Call): CallInfo {
  const authorization = call.metadata.get("authorization")[0];
  const request = call.request as { executorId?: unknown; namespace?: unknown } | undefined;
  const certificate = peerCertificate(call);
  return {
    method,
    ...(typeof authorization === "string" ? { authorization } : {}),
    ...(certificate ? { certificate } : {}),
    ...(typeof request?.executorId === "string" ? { executorId: request.executorId } : {}),
    ...(typeof request?.namespace === "string" ? { namespace: request.namespace } : {}),
  };
}

/** The verified client certificate, from grpc-js's auth context (mutual TLS only). */
function peerCertificate(call: Call): PeerCertificate | undefined {
  const peer = call.getAuthContext?.()?.sslPeerCertificate;
  if (!peer || Object.keys(peer).length === 0) return undefined;
  const cn = peer.subject?.CN;
  const commonName = Array.isArray(cn) ? cn[0] : cn;
  const altNames = (peer.subjectaltname ?? "").split(",").map((s) => s.trim()).filter(Boolean)
    .map((s) => s.replace(/^IP Address:/, "IP:"));
  return { ...(commonName ? { commonName } : {}), altNames };
}
