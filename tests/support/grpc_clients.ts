/**
 * Typed gRPC clients for integration tests, with promise helpers.
 *
 * @module
 */
import type { Buffer } from "node:buffer";
import * as grpc from "@grpc/grpc-js";
import {
  type GetNamespaceStateResponse__Output,
  type HeartbeatRequest,
  type HeartbeatResponse__Output,
  ShardDistributorAPIClient,
  ShardDistributorExecutorAPIClient,
  type WatchNamespaceStateResponse__Output,
} from "../../src/wire/proto.ts";

/** Both service clients on one address. */
export interface Clients {
  /** Routing and operations. */
  readonly api: ShardDistributorAPIClient;
  /** Heartbeats. */
  readonly executor: ShardDistributorExecutorAPIClient;
  /** Closes both. */
  close(): void;
}

/** Connects to `address`. */
export function connect(address: string): Clients {
  const credentials = grpc.credentials.createInsecure();
  const api = new ShardDistributorAPIClient(address, credentials);
  const executor = new ShardDistributorExecutorAPIClient(address, credentials);
  return {
    api,
    executor,
    close() {
      api.close();
      executor.close();
    },
  };
}

/** Calls a unary method as a promise. */
export function call<Req, Res>(
  client: object,
  method: string,
  request: Req,
  deadlineMs = 15_000,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    const fn = (client as Record<string, unknown>)[method] as (
      req: Req,
      meta: grpc.Metadata,
      opts: grpc.CallOptions,
      cb: (err: grpc.ServiceError | null, res: Res) => void,
    ) => void;
    fn.call(
      client,
      request,
      new grpc.Metadata(),
      { deadline: Date.now() + deadlineMs },
      (err, res) => err ? reject(err) : resolve(res),
    );
  });
}

/**
 * The executors of `namespace` as the called instance knows them now, by id:
 * whether it counts each alive (`GetNamespaceState`). A test waits on this for
 * "the service has seen it" or "it has gone stale" instead of sleeping.
 */
export async function executorsSeen(
  clients: Clients,
  namespace: string,
): Promise<Map<string, { readonly alive: boolean }>> {
  const state = await call<unknown, GetNamespaceStateResponse__Output>(
    clients.api,
    "getNamespaceState",
    { namespace },
    5_000,
  );
  return new Map(state.executors.map((e) => [e.executorId, { alive: e.alive }]));
}

/** Sends one heartbeat. */
export function heartbeat(
  clients: Clients,
  request: HeartbeatRequest,
): Promise<HeartbeatResponse__Output> {
  return call(clients.executor, "heartbeat", request);
}

/** The gRPC status code of a failed call. */
export async function codeOf(promise: Promise<unknown>): Promise<grpc.status | "ok"> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    return (error as grpc.ServiceError).code;
  }
}

/** Opens a watch stream and collects its messages. */
export function watch(
  clients: Clients,
  namespace: string,
  options: { readonly acceptDeltas?: boolean } = {},
): {
  messages: WatchNamespaceStateResponse__Output[];
  cancel(): void;
  next(): Promise<WatchNamespaceStateResponse__Output>;
} {
  const messages: WatchNamespaceStateResponse__Output[] = [];
  const stream = clients.api.watchNamespaceState({
    namespace,
    acceptDeltas: options.acceptDeltas ?? false,
  });
  let waiter: ((m: WatchNamespaceStateResponse__Output) => void) | undefined;
  stream.on("data", (m: WatchNamespaceStateResponse__Output) => {
    messages.push(m);
    waiter?.(m);
    waiter = undefined;
  });
  stream.on("error", () => {});
  return {
    messages,
    cancel: () => stream.cancel(),
    next: () => new Promise((resolve) => waiter = resolve),
  };
}

/**
 * A method definition whose messages are raw bytes both ways, for tests of
 * the transport that need a server and a client but no proto.
 */
export function bytesMethod(
  path: string,
  responseStream = false,
): grpc.MethodDefinition<Buffer, Buffer> {
  const identity = (bytes: Buffer) => bytes;
  return {
    path,
    requestStream: false,
    responseStream,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  };
}

export { grpc };
