/**
 * How heartbeats reach the service: an interface, and its gRPC
 * implementation that fails over between addresses.
 *
 * @module
 */
import type { grpc } from "../../wire/packages.ts";
import {
  type HeartbeatRequest__Output,
  type HeartbeatResponse__Output,
  ShardDistributorExecutorAPIClient,
} from "../../wire/proto.ts";
import { clientCredentials, type ClientTlsOptions } from "../common/credentials.ts";
import { classifyCallError } from "../common/classify.ts";
import { callUnary } from "../common/unary.ts";

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
  let index = 0;
  return {
    async heartbeat(request, { signal, timeoutMs }) {
      const address = addresses[index % addresses.length]!;
      let client = clients.get(address);
      if (client === undefined) {
        client = new ShardDistributorExecutorAPIClient(address, credentials, {
          ...CHANNEL_OPTIONS,
          ...options,
        });
        clients.set(address, client);
      }
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
    close() {
      for (const client of clients.values()) client.close();
      clients.clear();
    },
  };
}
