/**
 * The spectator transport over gRPC: one `ShardDistributorAPI` client per
 * address, created on first use and kept (its channel reconnects by itself).
 *
 * @module
 */
import type { grpc } from "../../wire/packages.ts";
import { callUnary } from "../common/unary.ts";
import { classifyCallError } from "../common/classify.ts";
import { clientCredentials, type ClientTlsOptions } from "../common/credentials.ts";
import type { BackoffOptions } from "../common/backoff.ts";
import {
  type ExecutorInfo__Output,
  type GetShardOwnerResponse__Output,
  type ListNamespacesResponse__Output,
  ShardDistributorAPIClient,
  type WatchNamespaceStateResponse__Output,
} from "../../wire/proto.ts";
import type { NamespaceType, SpectatorTransport, TransportCallOptions } from "./transport.ts";
import type { ExecutorPlacement, Owner, PlacementUpdate } from "./types.ts";
import type { ResolvedSpectatorOptions, SpectatorOptions } from "./options.ts";

/** Options of {@linkcode grpcTransport}. */
export interface GrpcTransportOptions {
  /** How to secure the connections. @default {{}} plaintext */
  readonly tls?: ClientTlsOptions;
  /** Reconnect delays of the channels; match the watch loop's. @default {{ baseMs: 100, maxMs: 5000 }} */
  readonly backoff?: BackoffOptions;
  /** More gRPC channel options; they override the defaults below. @default {{}} */
  readonly channelOptions?: grpc.ChannelOptions;
}

/**
 * A {@linkcode SpectatorTransport} over gRPC. Channels accept messages up to
 * 64 MiB (a snapshot of a large namespace is one message), send a keepalive
 * ping after 30 s without traffic so a silently dead connection is noticed
 * within about 40 s, and retry connecting with the watch loop's backoff
 * instead of gRPC's default (which grows to two minutes).
 *
 * @example
 * ```ts ignore
 * import { grpcTransport } from "./grpc_transport.ts";
 *
 * const transport = grpcTransport();
 * const owner = await transport.getShardOwner("127.0.0.1:7943", "orders", "42");
 * transport.close();
 * ```
 */
export function grpcTransport(options: GrpcTransportOptions = {}): SpectatorTransport {
  const { credentials, options: tlsOptions } = clientCredentials(options.tls);
  const channelOptions: grpc.ChannelOptions = {
    "grpc.max_receive_message_length": 64 * 1024 * 1024,
    "grpc.keepalive_time_ms": 30_000,
    "grpc.keepalive_timeout_ms": 10_000,
    "grpc.initial_reconnect_backoff_ms": Math.max(100, options.backoff?.baseMs ?? 100),
    "grpc.max_reconnect_backoff_ms": Math.max(100, options.backoff?.maxMs ?? 5_000),
    ...tlsOptions,
    ...options.channelOptions,
  };
  const clients = new Map<string, ShardDistributorAPIClient>();
  let closed = false;
  const client = (address: string) => {
    if (closed) throw new Error("The spectator transport is closed");
    let found = clients.get(address);
    if (found === undefined) {
      // A copy each: grpc-js takes `interceptors` (the bearer token) out of the object.
      found = new ShardDistributorAPIClient(address, credentials, { ...channelOptions });
      clients.set(address, found);
    }
    return found;
  };

  return {
    async *watch(address, namespace, signal) {
      const call = client(address).watchNamespaceState({ namespace, acceptDeltas: true });
      const cancel = () => call.cancel();
      signal.addEventListener("abort", cancel, { once: true });
      try {
        if (signal.aborted) return;
        for await (const message of call as AsyncIterable<WatchNamespaceStateResponse__Output>) {
          yield toUpdate(message);
        }
      } catch (error) {
        throw classifyCallError(error, { address, namespace, operation: "Watch" });
      } finally {
        signal.removeEventListener("abort", cancel);
        call.cancel();
      }
    },
    async getShardOwner(address, namespace, shardKey, callOptions?: TransportCallOptions) {
      const response = await callUnary<GetShardOwnerResponse__Output>(
        client(address),
        "getShardOwner",
        { namespace, shardKey },
        callOptions,
      ).catch((error) => {
        throw classifyCallError(error, { address, namespace, operation: "GetShardOwner" });
      });
      const owners = (response.owners ?? []).map((o) =>
        ({
          executorId: o.executorId,
          metadata: o.metadata,
        }) satisfies Owner
      );
      return {
        executorId: response.owner,
        metadata: response.metadata,
        ...(owners.length > 1 ? { owners } : {}),
      };
    },
    async namespaceType(address, namespace, callOptions?: TransportCallOptions) {
      const response = await callUnary<ListNamespacesResponse__Output>(
        client(address),
        "listNamespaces",
        {},
        callOptions,
      ).catch((error) => {
        throw classifyCallError(error, { address, namespace, operation: "ListNamespaces" });
      });
      const type = response.namespaces.find((n) => n.name === namespace)?.type;
      return type === "fixed" || type === "ephemeral" ? type satisfies NamespaceType : undefined;
    },
    isRetryable(error) {
      return classifyCallError(error).retryable;
    },
    close() {
      closed = true;
      for (const c of clients.values()) c.close();
      clients.clear();
    },
  };
}

/**
 * The {@linkcode grpcTransport} of a spectator's `options`: their TLS, token
 * and channel options, and the backoff `resolved` from them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grpcTransportFor } from "./grpc_transport.ts";
 * import { resolveOptions } from "./options.ts";
 *
 * const options = { addresses: ["127.0.0.1:7943"], namespace: "orders" };
 * const transport = grpcTransportFor(options, resolveOptions(options)); // connects on first use
 * assert.equal(typeof transport.watch, "function");
 * transport.close();
 * ```
 */
export function grpcTransportFor(
  options: SpectatorOptions,
  resolved: ResolvedSpectatorOptions,
): SpectatorTransport {
  return grpcTransport({
    ...(options.tls === undefined && options.token === undefined
      ? {}
      : { tls: { ...options.tls, ...(options.token ? { token: options.token } : {}) } }),
    ...(options.channelOptions === undefined ? {} : { channelOptions: options.channelOptions }),
    backoff: resolved.backoff,
  });
}

function toUpdate(message: WatchNamespaceStateResponse__Output): PlacementUpdate {
  // Key-range namespaces: the slice map when it is new (copied out of the message's buffer).
  const sliceMap = message.sliceMap?.length ? { sliceMap: Uint8Array.from(message.sliceMap) } : {};
  if (!message.isDelta) {
    return { kind: "snapshot", executors: message.executors.map(toExecutor), ...sliceMap };
  }
  return {
    kind: "delta",
    executors: message.executors.map((e) => ({ executorId: e.executorId, metadata: e.metadata })),
    owners: message.ownerChanges.map((c) => ({
      shard: c.shardKey,
      owner: c.executorId === "" ? undefined : c.executorId,
      ...(c.executorIds.length > 1 ? { owners: c.executorIds } : {}),
    })),
    removedExecutors: message.removedExecutors,
    ...sliceMap,
  };
}

function toExecutor(info: ExecutorInfo__Output): ExecutorPlacement {
  return {
    executorId: info.executorId,
    metadata: info.metadata,
    shards: info.shards.map((s) => s.shardKey),
    ...(info.replicaShards.length > 0
      ? { replicaShards: info.replicaShards.map((s) => ({ shard: s.shardKey, rank: s.rank })) }
      : {}),
  };
}
