/**
 * A unary gRPC handler from an async function, with the shared error mapping
 * (`status_map.ts`) and per-call observation.
 *
 * @module
 */
import type * as grpc from "@grpc/grpc-js";
import { status as Status } from "@grpc/grpc-js";
import type { Logger } from "../../core/logger.ts";
import type { ServiceObserver } from "../../core/observer.ts";
import { decoded } from "./malformed.ts";
import { ForwardedFailure, type LeaderForwarder } from "./leader_forwarder.ts";
import { isUnexpected, toGrpcError } from "./status_map.ts";
import { asOperator } from "../../service/mod.ts";
import { AUDITED_METHODS, auditRefusal, callerOf, type RefusalSink } from "./operator_calls.ts";

type Callback<Res> = (error: (Partial<grpc.ServiceError>) | null, value?: Res) => void;

/** What every handler shares: where to log and where to report. */
export interface HandlerContext {
  /** Where to log unexpected failures. */
  readonly logger: Logger;
  /** Receives each call's method, status and duration. */
  readonly observer: ServiceObserver;
  /** Forwards moves to the leader when this instance does not lead. @default {none} */
  readonly forwarder?: LeaderForwarder;
  /** Records refused operator calls (see operator_calls.ts). @default {none} */
  readonly audit?: RefusalSink;
}

const NEVER_ABORTED = new AbortController().signal;

/** How a call ended: an error status, or the answer. */
export type CallEnd<Res> = (error: GrpcStatus | null, value?: Res) => void;

/** A failed call's status, as sent in its trailers. */
export interface GrpcStatus {
  /** The status code. */
  readonly code: grpc.status;
  /** Its message. */
  readonly details: string;
  /** More trailers (a typed detail). */
  readonly metadata?: grpc.Metadata;
}

/**
 * Runs one call's work `run` and ends it through `end`, with the shared error
 * mapping (`status_map.ts`, a forwarded call's own status) and the call's
 * observation (method, status, duration from `started`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settleCall } from "./unary_handler.ts";
 * import { InvalidArgumentError } from "../../core/errors.ts";
 * import type { Logger } from "../../core/logger.ts";
 *
 * const context = { logger: console as unknown as Logger, observer: {} };
 * const code = await new Promise((done) =>
 *   settleCall(context, "M", performance.now(), () => {
 *     throw new InvalidArgumentError("x", "bad");
 *   }, (error) => done(error?.code))
 * );
 * assert.equal(code, 3);
 * ```
 */
export function settleCall<Res>(
  context: HandlerContext,
  method: string,
  started: number,
  run: () => Promise<Res> | Res,
  end: CallEnd<Res>,
): void {
  const { logger, observer } = context;
  Promise.resolve().then(run).then(
    (response) => {
      observer.rpc?.(method, "OK", performance.now() - started);
      end(null, response);
    },
    (error) => {
      if (error instanceof ForwardedFailure) {
        // The leader's answer to a forwarded call goes back as it came.
        observer.rpc?.(
          method,
          Status[error.code] ?? String(error.code),
          performance.now() - started,
        );
        end({ code: error.code, details: error.details, metadata: error.metadata });
        return;
      }
      if (isUnexpected(error)) logger.error("request failed", { method, error });
      const status = toGrpcError(error);
      observer.rpc?.(
        method,
        Status[status.code] ?? String(status.code),
        performance.now() - started,
      );
      end(status);
    },
  );
}

/**
 * Wraps an async function as a unary handler with the shared error mapping.
 * Only handlers that declare `cancellable` get a signal that aborts when the
 * client cancels; the others (the hot Heartbeat path) skip its cost.
 */
export function unary<Req, Res>(
  context: HandlerContext,
  method: string,
  fn: (request: Req, signal: AbortSignal, metadata: grpc.Metadata) => Promise<Res> | Res,
  cancellable = false,
): (call: grpc.ServerUnaryCall<Req, Res>, callback: Callback<Res>) => void {
  return (call, callback) => {
    const started = performance.now();
    let signal = NEVER_ABORTED;
    if (cancellable) {
      const aborted = new AbortController();
      call.on("cancelled", () => aborted.abort(new Error("Call cancelled")));
      signal = aborted.signal;
    }
    const run = () => fn(decoded(call.request), signal, call.metadata);
    if (!AUDITED_METHODS.has(method)) return settleCall(context, method, started, run, callback);
    const actor = callerOf(call);
    asOperator(actor, () =>
      settleCall(context, method, started, run, (error, value) => {
        if (error) auditRefusal(context.audit, method, call.request, actor, error);
        callback(error, value);
      }));
  };
}
