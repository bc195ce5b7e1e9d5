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

type Callback<Res> = (error: (Partial<grpc.ServiceError>) | null, value?: Res) => void;

/** What every handler shares: where to log and where to report. */
export interface HandlerContext {
  /** Where to log unexpected failures. */
  readonly logger: Logger;
  /** Receives each call's method, status and duration. */
  readonly observer: ServiceObserver;
  /** Forwards moves to the leader when this instance does not lead. @default {none} */
  readonly forwarder?: LeaderForwarder;
}

const NEVER_ABORTED = new AbortController().signal;

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
  const { logger, observer } = context;
  return (call, callback) => {
    const started = performance.now();
    let signal = NEVER_ABORTED;
    if (cancellable) {
      const aborted = new AbortController();
      call.on("cancelled", () => aborted.abort(new Error("Call cancelled")));
      signal = aborted.signal;
    }
    Promise.resolve().then(() => fn(decoded(call.request), signal, call.metadata)).then(
      (response) => {
        observer.rpc?.(method, "OK", performance.now() - started);
        callback(null, response);
      },
      (error) => {
        if (error instanceof ForwardedFailure) {
          // The leader's answer to a forwarded call goes back as it came.
          observer.rpc?.(
            method,
            Status[error.code] ?? String(error.code),
            performance.now() - started,
          );
          callback({ code: error.code, details: error.details, metadata: error.metadata });
          return;
        }
        if (isUnexpected(error)) logger.error("request failed", { method, error });
        const status = toGrpcError(error);
        observer.rpc?.(
          method,
          Status[status.code] ?? String(status.code),
          performance.now() - started,
        );
        callback(status);
      },
    );
  };
}
