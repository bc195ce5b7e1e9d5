/**
 * How heartbeats reach the service: an interface, and its gRPC
 * implementation that fails over between addresses.
 *
 * @module
 */
import type { grpc } from "../../wire/packages.ts";
import {
  type GetShardOwnerResponse__Output,
  type HeartbeatRequest__Output,
  type HeartbeatResponse__Output,
  ShardDistributorAPIClient,
  ShardDistributorExecutorAPIClient,
  type WatchExecutorAssignmentResponse__Output,
} from "../../wire/proto.ts";
import { clientCredentials, type ClientTlsOptions } from "../common/credentials.ts";
import { classifyCallError } from "../common/classify.ts";
import { callUnary } from "../common/unary.ts";
import type { ShardOwner } from "./types.ts";

/**
 * Sends heartbeats. The executor calls {@linkcode HeartbeatTransport.heartbeat}
 * one at a time; implement it to test processors without a service.
 */
export interface HeartbeatTransport {
  /**
   * Sends one heartbeat and resolves with the answer; rejects on any failure
   * (the gRPC transport with a `ShardManagerError`; errors of other
   * transports are classified by the executor).
   */
  heartbeat(
    request: HeartbeatRequest__Output,
    options: { readonly signal: AbortSignal; readonly timeoutMs: number },
  ): Promise<HeartbeatResponse__Output>;
  /**
   * Optional: follows the executor's assignment hints
   * (`WatchExecutorAssignment`), yielding the revision of each until `signal`
   * aborts or the service ends the stream; throws on failure (the gRPC
   * transport a `ShardManagerError`, code `UNIMPLEMENTED` from a service
   * without the stream). A transport without it is only polled.
   */
  watchAssignment?(
    request: { readonly namespace: string; readonly executorId: string },
    signal: AbortSignal,
  ): AsyncIterable<string>;
  /**
   * Optional: the executor serving a shard now (`GetShardOwner`), for a
   * `prepare` hook's `ctx.currentOwner()`; resolves `undefined` when the
   * shard has no owner and rejects on any other failure. A transport without
   * it makes `currentOwner()` reject with code `UNIMPLEMENTED`.
   */
  shardOwner?(
    request: { readonly namespace: string; readonly shardKey: string },
    options: { readonly signal: AbortSignal; readonly timeoutMs: number },
  ): Promise<ShardOwner | undefined>;
  /** Releases connections. */
  close(): void;
}

/**
 * Channel options for heartbeat clients: grpc-js waits up to 120 s between
 * reconnection attempts by default, long enough for a service that came back
 * to declare the executor stale; cap it at 1 s.
 */
const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  "grpc.initial_reconnect_backoff_ms": 200,
  "grpc.max_reconnect_backoff_ms": 1_000,
};

/**
 * A {@linkcode HeartbeatTransport} over gRPC. It sends to one address at a
 * time and moves to the next one after a failure, so with several addresses
 * one dead instance costs one failed heartbeat.
 *
 * @example
 * ```ts ignore
 * import { grpcHeartbeatTransport } from "./transport.ts";
 *
 * const transport = grpcHeartbeatTransport(["10.0.0.1:7943", "10.0.0.2:7943"]);
 * const answer = await transport.heartbeat({
 *   namespace: "orders",
 *   executorId: "host-1",
 *   status: "EXECUTOR_STATUS_ACTIVE",
 *   shardStatusReports: {},
 *   metadata: {},
 * }, { signal: AbortSignal.timeout(2_000), timeoutMs: 2_000 });
 * console.log(Object.keys(answer.shardAssignments));
 * transport.close();
 * ```
 */
export function grpcHeartbeatTransport(
  addresses: readonly string[],
  tls: ClientTlsOptions = {},
): HeartbeatTransport {
  if (addresses.length === 0) throw new RangeError("Cannot heartbeat: no service address given");
  const { credentials, options } = clientCredentials(tls);
  const clients = new Map<string, ShardDistributorExecutorAPIClient>();
  const lookups = new Map<string, ShardDistributorAPIClient>();
  let index = 0;
  const clientOf = (address: string) => {
    let client = clients.get(address);
    if (client === undefined) {
      client = new ShardDistributorExecutorAPIClient(address, credentials, {
        ...CHANNEL_OPTIONS,
        ...options,
      });
      clients.set(address, client);
    }
    return client;
  };
  return {
    async heartbeat(request, { signal, timeoutMs }) {
      const address = addresses[index % addresses.length]!;
      const client = clientOf(address);
      try {
        return await callUnary<HeartbeatResponse__Output>(client, "heartbeat", request, {
          deadlineMs: timeoutMs,
          signal,
        });
      } catch (error) {
        index = (index + 1) % addresses.length;
        throw classifyCallError(error, {
          address,
          namespace: request.namespace,
          operation: "Heartbeat",
        });
      }
    },
    // The address heartbeats go to now: hints and the heartbeats they ask for meet the same
    // instance's picture.
    async *watchAssignment(request, signal) {
      const address = addresses[index % addresses.length]!;
      const call = clientOf(address).watchExecutorAssignment({ ...request });
      const cancel = () => call.cancel();
      signal.addEventListener("abort", cancel, { once: true });
      try {
        if (signal.aborted) return;
        for await (const hint of call as AsyncIterable<WatchExecutorAssignmentResponse__Output>) {
          yield hint.revision;
        }
      } catch (error) {
        if (signal.aborted) return;
        throw classifyCallError(error, {
          address,
          namespace: request.namespace,
          operation: "WatchExecutorAssignment",
        });
      } finally {
        signal.removeEventListener("abort", cancel);
        call.cancel();
      }
    },
    // To the address heartbeats go to, with the same channel options (grpc-js then shares the
    // connection).
    async shardOwner(request, { signal, timeoutMs }) {
      const address = addresses[index % addresses.length]!;
      let client = lookups.get(address);
      if (client === undefined) {
        client = new ShardDistributorAPIClient(address, credentials, {
          ...CHANNEL_OPTIONS,
          ...options,
        });
        lookups.set(address, client);
      }
      try {
        const answer = await callUnary<GetShardOwnerResponse__Output>(
          client,
          "getShardOwner",
          { ...request },
          { deadlineMs: timeoutMs, signal },
        );
        return answer.owner === ""
          ? undefined
          : { executorId: answer.owner, metadata: { ...answer.metadata } };
      } catch (error) {
        const failure = classifyCallError(error, {
          address,
          namespace: request.namespace,
          operation: "GetShardOwner",
        });
        if (failure.code === "SHARD_NOT_FOUND") return undefined;
        throw failure;
      }
    },
    close() {
      for (const client of [...clients.values(), ...lookups.values()]) client.close();
      clients.clear();
      lookups.clear();
    },
  };
}
