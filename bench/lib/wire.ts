/**
 * Method definitions and clients for the load generators: the real
 * `GetShardOwner`, `Heartbeat` and `WatchNamespaceState`, and the same
 * methods under the echo server's paths (same client-side serializers, so the
 * client does the same work against either server).
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { packageDefinition } from "../../src/wire/package_definition.ts";

const V1 = "uber.cadence.sharddistributor.v1";

/** A unary or streaming method as `@grpc/proto-loader` describes it. */
export type Method = grpc.MethodDefinition<unknown, unknown>;

function methodOf(service: string, name: string): Method {
  const definition = packageDefinition[`${V1}.${service}`] as unknown as Record<string, Method>;
  const method = definition[name];
  if (method === undefined) throw new Error(`No method ${service}.${name} in the proto`);
  return method;
}

/** `ShardDistributorAPI.GetShardOwner`. */
export const getShardOwnerMethod: Method = methodOf("ShardDistributorAPI", "GetShardOwner");
/** `ShardDistributorExecutorAPI.Heartbeat`. */
export const heartbeatMethod: Method = methodOf("ShardDistributorExecutorAPI", "Heartbeat");
/** `ShardDistributorAPI.DrainShards`. */
export const drainShardsMethod: Method = methodOf("ShardDistributorAPI", "DrainShards");
/** `ShardDistributorAPI.UndrainShards`. */
export const undrainShardsMethod: Method = methodOf("ShardDistributorAPI", "UndrainShards");
/** `ShardDistributorAPI.DrainExecutors`. */
export const drainExecutorsMethod: Method = methodOf("ShardDistributorAPI", "DrainExecutors");
/** `ShardDistributorAPI.UndrainExecutors`. */
export const undrainExecutorsMethod: Method = methodOf("ShardDistributorAPI", "UndrainExecutors");
/** `ShardDistributorAPI.WatchNamespaceState` (server stream). */
export const watchMethod: Method = methodOf("ShardDistributorAPI", "WatchNamespaceState");

/** Paths the echo server answers: raw bytes, or through the proto codec. */
export const ECHO_PATHS = {
  raw: { owner: "/bench.Echo/Owner", heartbeat: "/bench.Echo/Heartbeat" },
  proto: { owner: "/bench.Echo/OwnerProto", heartbeat: "/bench.Echo/HeartbeatProto" },
} as const;

/** Which server a load worker calls: the service, or the echo server with either codec. */
export type Target = "service" | "raw" | "proto";

/** `method` under another path (for the echo server). */
export function atPath(method: Method, path: string): Method {
  return { ...method, path };
}

/** A bare client channel for `address`, not shared with other clients. */
export function openClient(address: string): grpc.Client {
  return new grpc.Client(address, grpc.credentials.createInsecure(), {
    "grpc.use_local_subchannel_pool": 1,
    "grpc.max_receive_message_length": 64 * 1024 * 1024,
  });
}

/** Calls a unary `method` on `client`; resolves with the decoded answer. */
export function unary<Res>(
  client: grpc.Client,
  method: Method,
  request: unknown,
  deadlineMs = 30_000,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      request,
      new grpc.Metadata(),
      { deadline: Date.now() + deadlineMs },
      (error, response) => error ? reject(error) : resolve(response as Res),
    );
  });
}

export { grpc };
