/**
 * smctl's connection to Shard Manager: typed unary calls with the `--timeout`
 * deadline, the watch stream, and gRPC failures turned into
 * {@linkcode SmctlError}s. Given several endpoints (`--endpoints`), a call
 * that cannot reach one instance goes to the next: always when the
 * connection failed (nothing was sent), and on a deadline only for reads.
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
import type * as wire from "../wire/proto.ts";
import {
  fromGrpcFailure,
  httpPortError,
  isGrpcFailure,
  UNREACHABLE,
  UsageError,
} from "./errors.ts";
import { answersHttp } from "./http_probe.ts";
import { status } from "@grpc/grpc-js";
import { checkAddress } from "./address.ts";
import { formatDuration } from "./duration.ts";

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
  /** CanStopExecutors. */
  canStopExecutors: [wire.CanStopExecutorsRequest, wire.CanStopExecutorsResponse__Output];
  /** ListLeaders. */
  listLeaders: [ListLeadersRequest, ListLeadersResponse__Output];
  /** MoveShards. */
  moveShards: [MoveShardsRequest, MoveShardsResponse__Output];
  /** GetBlastRadius. */
  getBlastRadius: [GetBlastRadiusRequest, GetBlastRadiusResponse__Output];
  /** CreateNamespace. */
  createNamespace: [wire.CreateNamespaceRequest, wire.CreateNamespaceResponse__Output];
  /** UpdateNamespace. */
  updateNamespace: [wire.UpdateNamespaceRequest, wire.UpdateNamespaceResponse__Output];
  /** DeleteNamespace. */
  deleteNamespace: [wire.DeleteNamespaceRequest, wire.DeleteNamespaceResponse__Output];
  /** GetNamespaceDefinition. */
  getNamespaceDefinition: [
    wire.GetNamespaceDefinitionRequest,
    wire.GetNamespaceDefinitionResponse__Output,
  ];
  /** ListNamespaceEvents. */
  listNamespaceEvents: [ListNamespaceEventsRequest, ListNamespaceEventsResponse__Output];
  /** LiftBrake. */
  liftBrake: [wire.LiftBrakeRequest, wire.LiftBrakeResponse__Output];
  /** ChangeSlice. */
  changeSlice: [wire.ChangeSliceRequest, wire.ChangeSliceResponse__Output];
  /** GetBrake. */
  getBrake: [wire.GetBrakeRequest, wire.GetBrakeResponse__Output];
}

/** Options of {@linkcode Connection}. */
export interface ConnectionOptions {
  /** `host:port` of a Shard Manager instance (or give `addresses`). */
  readonly address?: string;
  /** Instances to try in order (`--endpoints`); the first is used until it cannot be reached. */
  readonly addresses?: readonly string[];
  /** Deadline of each unary call, ms. */
  readonly timeoutMs: number;
  /** Transport security. @default {{}} plaintext */
  readonly tls?: ClientTlsOptions;
  /** Told when a call moves on from one endpoint to the next, and why. @default {nothing} */
  readonly onFailOver?: (from: string, to: string, reason: string) => void;
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
  /** Every endpoint, in order. */
  readonly addresses: readonly string[];
  /** Deadline of each unary call, ms. */
  readonly timeoutMs: number;
  readonly #tls: ClientTlsOptions;
  readonly #onFailOver: ConnectionOptions["onFailOver"];
  #client: ShardDistributorAPIClient | undefined;
  #current = 0;

  /** Remembers the options; nothing connects before the first call. */
  constructor(options: ConnectionOptions) {
    this.addresses = options.addresses ?? (options.address ? [options.address] : []);
    if (this.addresses.length === 0) throw new TypeError("Connection needs an address");
    this.timeoutMs = options.timeoutMs;
    this.#tls = options.tls ?? {};
    this.#onFailOver = options.onFailOver;
  }

  /** The endpoint in use. */
  get address(): string {
    return this.addresses[this.#current]!;
  }

  /** Calls a unary RPC; a failure becomes an `SmctlError` with its exit code. */
  async call<M extends keyof Rpcs>(
    method: M,
    request: Rpcs[M][0],
    signal?: AbortSignal,
  ): Promise<Rpcs[M][1]> {
    for (let tried = 1;; tried++) {
      try {
        return await callUnary<Rpcs[M][1]>(this.#api(), method, request, {
          deadlineMs: this.timeoutMs,
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        if (!isGrpcFailure(error)) throw error;
        const more = tried < this.addresses.length && !signal?.aborted;
        if (more && failsOver(method, error)) {
          this.#failOver(failOverReason(error, this.timeoutMs));
          continue;
        }
        if (await this.#httpAnswers(error)) throw httpPortError(this.address, error);
        const site = tried > 1 && failsOver(method, error)
          ? { ...this.#site(method), address: this.addresses.join(", ") }
          : this.#site(method);
        throw fromGrpcFailure(error, site);
      }
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
      if (!isGrpcFailure(error)) throw error;
      const failure = fromGrpcFailure(error, this.#site("watchNamespaceState"));
      // The caller reconnects after a failure: let it reach the next endpoint.
      if (this.addresses.length > 1 && failsOver("watchNamespaceState", error)) {
        this.#failOver(failOverReason(error, this.timeoutMs));
      }
      throw failure;
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
      checkAddress(this.address);
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

  /**
   * An HTTP/1-only server breaks the HTTP/2 connection in odd ways ("write
   * after end"): for a failed connection that was not refused or unresolved,
   * look whether plain HTTP answers there (plaintext only).
   */
  async #httpAnswers(error: { code: number; details: string }): Promise<boolean> {
    const t = this.#tls;
    if (t.tls || t.caFile || t.certFile || t.keyFile || t.serverName) return false;
    if (error.code !== status.UNAVAILABLE) return false;
    if (/ECONNREFUSED|ENOTFOUND|Name resolution failed|EHOSTUNREACH/i.test(error.details)) {
      return false;
    }
    return await answersHttp(this.address);
  }

  #failOver(reason: string): void {
    this.close();
    const from = this.address;
    this.#current = (this.#current + 1) % this.addresses.length;
    this.#onFailOver?.(from, this.address, reason);
  }

  #site(method: string) {
    const rpc = method[0]!.toUpperCase() + method.slice(1);
    return { address: this.address, method: rpc, timeoutMs: this.timeoutMs };
  }
}

const READS = /^(get|list|inspect|watch)/;

/**
 * Whether another instance may take the call: the connection failed (nothing
 * reached the service), or a read had no answer in time. A write that timed
 * out may still be applied, so it is not sent elsewhere.
 */
function failsOver(method: string, error: { code: number; details: string }): boolean {
  if (error.code === status.UNAVAILABLE) return UNREACHABLE.test(error.details);
  return error.code === status.DEADLINE_EXCEEDED && READS.test(method);
}

/** Why a call moved on, in a few words. */
function failOverReason(error: { code: number; details: string }, timeoutMs: number): string {
  if (error.code === status.DEADLINE_EXCEEDED) {
    return `no answer within ${formatDuration(timeoutMs)}`;
  }
  const known = error.details.match(/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|Name resolution failed/i);
  if (known) {
    return ({
      ECONNREFUSED: "connection refused",
      ENOTFOUND: "unknown host",
      EHOSTUNREACH: "no route to host",
    } as Record<string, string>)[known[0].toUpperCase()] ?? "unknown host";
  }
  return error.details.split("\n")[0]!.slice(0, 120) || "unavailable";
}
