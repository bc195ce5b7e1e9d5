/**
 * A promise around a unary gRPC call, with a deadline and cancellation.
 *
 * @module
 */
import { grpc } from "../../wire/packages.ts";

/** Options of {@linkcode callUnary}. */
export interface CallOptions {
  /** Deadline from now, in ms. @default {10000} */
  readonly deadlineMs?: number;
  /** Cancels the call. */
  readonly signal?: AbortSignal;
}

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, response?: Res) => void,
) => grpc.ClientUnaryCall;

/**
 * Calls `client[method](request)` and resolves with the response, or rejects
 * with the `grpc.ServiceError` (which carries `code` and `details`).
 *
 * @example
 * ```ts ignore
 * import { type GetShardOwnerResponse__Output, ShardDistributorAPIClient } from "../../wire/proto.ts";
 * import { clientCredentials } from "./credentials.ts";
 * import { callUnary } from "./unary.ts";
 *
 * const { credentials } = clientCredentials();
 * const api = new ShardDistributorAPIClient("127.0.0.1:7943", credentials);
 * const owner = await callUnary<GetShardOwnerResponse__Output>(api, "getShardOwner", { namespace: "orders", shardKey: "7" });
 * ```
 */
export function callUnary<Res, Req = unknown>(
  client: object,
  method: string,
  request: Req,
  options: CallOptions = {},
): Promise<Res> {
  return new Promise<Res>((resolve, reject) => {
    if (options.signal?.aborted) return reject(options.signal.reason);
    const fn = (client as Record<string, unknown>)[method] as UnaryMethod<Req, Res>;
    if (typeof fn !== "function") return reject(new TypeError(`no method ${method} on the client`));
    const call = fn.call(
      client,
      request,
      new grpc.Metadata(),
      { deadline: Date.now() + (options.deadlineMs ?? 10_000) },
      (error, response) => {
        options.signal?.removeEventListener("abort", cancel);
        if (error) reject(error);
        else resolve(response as Res);
      },
    );
    const cancel = () => call.cancel();
    options.signal?.addEventListener("abort", cancel, { once: true });
  });
}
