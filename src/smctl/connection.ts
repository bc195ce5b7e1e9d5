/**
 * smctl's connection to one Shard Manager instance: typed unary calls with
 * the `--timeout` deadline, the watch stream, and gRPC failures turned into
 * {@linkcode SmctlError}s.
 *
 * @module
 */
import { clientCredentials, type ClientTlsOptions } from "../client/common/credentials.ts";
import { callUnary } from "../client/common/unary.ts";
import {
  type DrainExecutorsRequest,
  type DrainExecutorsResponse__Output,
  type DrainShardsRequest,
  type DrainShardsResponse__Output,
  type ForceResetNamespaceRequest,
  type ForceResetNamespaceResponse__Output,
  type GetBlastRadiusRequest,
  type GetBlastRadiusResponse__Output,
  type GetDrainedShardsRequest,
  type GetDrainedShardsResponse__Output,
  type GetExecutorStateRequest,
  type GetExecutorStateResponse__Output,
  type GetNamespaceStateRequest,
  type GetNamespaceStateResponse__Output,
  type GetShardOwnerRequest,
  type GetShardOwnerResponse__Output,
  type InspectShardRequest,
  type InspectShardResponse__Output,
  type ListExecutorDrainsRequest,
  type ListExecutorDrainsResponse__Output,
  type ListLeadersRequest,
  type ListLeadersResponse__Output,
  type ListNamespaceEventsRequest,
  type ListNamespaceEventsResponse__Output,
  type ListNamespacesRequest,
  type ListNamespacesResponse__Output,
  type MoveShardsRequest,
  type MoveShardsResponse__Output,
  ShardDistributorAPIClient,
  type UndrainExecutorsRequest,
  type UndrainExecutorsResponse__Output,
  type UndrainShardsRequest,
  type UndrainShardsResponse__Output,
  type WatchNamespaceStateResponse__Output,
} from "../wire/proto.ts";
import { fromGrpcFailure, isGrpcFailure, UsageError } from "./errors.ts";

/** The unary RPCs smctl calls: request and response types by method. */
export interface Rpcs {
  /** GetShardOwner. */
  getShardOwner: [GetShardOwnerRequest, GetShardOwnerResponse__Output];
  /** InspectShard. */
  inspectShard: [InspectShardRequest, InspectShardResponse__Output];
  /** GetNamespaceState. */
  getNamespaceState: [GetNamespaceStateRequest, GetNamespaceStateResponse__Output];
  /** GetExecutorState. */
  getExecutorState: [GetExecutorStateRequest, GetExecutorStateResponse__Output];
  /** ListNamespaces. */
  listNamespaces: [ListNamespacesRequest, ListNamespacesResponse__Output];
  /** DrainShards. */
  drainShards: [DrainShardsRequest, DrainShardsResponse__Output];
  /** UndrainShards. */
  undrainShards: [UndrainShardsRequest, UndrainShardsResponse__Output];
  /** GetDrainedShards. */
  getDrainedShards: [GetDrainedShardsRequest, GetDrainedShardsResponse__Output];
  /** ForceResetNamespace. */
  forceResetNamespace: [ForceResetNamespaceRequest, ForceResetNamespaceResponse__Output];
  /** DrainExecutors. */
  drainExecutors: [DrainExecutorsRequest, DrainExecutorsResponse__Output];
  /** UndrainExecutors. */
  undrainExecutors: [UndrainExecutorsRequest, UndrainExecutorsResponse__Output];
  /** ListExecutorDrains. */
  listExecutorDrains: [ListExecutorDrainsRequest, ListExecutorDrainsResponse__Output];
  /** ListLeaders. */
  listLeaders: [ListLeadersRequest, ListLeadersResponse__Output];
  /** MoveShards. */
  moveShards: [MoveShardsRequest, MoveShardsResponse__Output];
  /** GetBlastRadius. */
  getBlastRadius: [GetBlastRadiusRequest, GetBlastRadiusResponse__Output];
  /** ListNamespaceEvents. */
  listNamespaceEvents: [ListNamespaceEventsRequest, ListNamespaceEventsResponse__Output];
}

/** Options of {@linkcode Connection}. */
export interface ConnectionOptions {
  /** `host:port` of a Shard Manager instance. */
  readonly address: string;
  /** Deadline of each unary call, ms. */
  readonly timeoutMs: number;
  /** Transport security. @default {{}} plaintext */
  readonly tls?: ClientTlsOptions;
}

/**
 * A lazily opened client of `ShardDistributorAPI`.
 *
 * @example
 * ```ts ignore
 * import { Connection } from "./connection.ts";
 *
 * const connection = new Connection({ address: "127.0.0.1:7943", timeoutMs: 5_000 });
 * const { namespaces } = await connection.call("listNamespaces", {});
 * connection.close();
 * ```
 */
export class Connection {
  /** The service address. */
  readonly address: string;
  /** Deadline of each unary call, ms. */
  readonly timeoutMs: number;
  readonly #tls: ClientTlsOptions;
  #client: ShardDistributorAPIClient | undefined;

  /** Remembers the options; nothing connects before the first call. */
  constructor(options: ConnectionOptions) {
    this.address = options.address;
    this.timeoutMs = options.timeoutMs;
    this.#tls = options.tls ?? {};
  }

  /** Calls a unary RPC; a failure becomes an `SmctlError` with its exit code. */
  async call<M extends keyof Rpcs>(
    method: M,
    request: Rpcs[M][0],
    signal?: AbortSignal,
  ): Promise<Rpcs[M][1]> {
    try {
      return await callUnary<Rpcs[M][1]>(this.#api(), method, request, {
        deadlineMs: this.timeoutMs,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throw isGrpcFailure(error) ? fromGrpcFailure(error, this.#site(method)) : error;
    }
  }

  /**
   * The messages of `WatchNamespaceState` until `signal` aborts (then the
   * iteration just ends) or the stream fails (an `SmctlError`).
   */
  async *watch(
    namespace: string,
    signal: AbortSignal,
  ): AsyncGenerator<WatchNamespaceStateResponse__Output> {
    const stream = this.#api().watchNamespaceState({ namespace });
    const cancel = () => stream.cancel();
    signal.addEventListener("abort", cancel, { once: true });
    try {
      for await (const message of stream) yield message as WatchNamespaceStateResponse__Output;
    } catch (error) {
      if (signal.aborted) return;
      throw isGrpcFailure(error)
        ? fromGrpcFailure(error, this.#site("watchNamespaceState"))
        : error;
    } finally {
      signal.removeEventListener("abort", cancel);
      stream.cancel();
    }
  }

  /** Closes the channel, if one was opened. */
  close(): void {
    this.#client?.close();
    this.#client = undefined;
  }

  #api(): ShardDistributorAPIClient {
    if (this.#client === undefined) {
      let secure;
      try {
        secure = clientCredentials(this.#tls);
      } catch (error) {
        throw new UsageError((error as Error).message, { cause: error });
      }
      this.#client = new ShardDistributorAPIClient(
        this.address,
        secure.credentials,
        secure.options,
      );
    }
    return this.#client;
  }

  #site(method: string) {
    const rpc = method[0]!.toUpperCase() + method.slice(1);
    return { address: this.address, method: rpc, timeoutMs: this.timeoutMs };
  }
}
