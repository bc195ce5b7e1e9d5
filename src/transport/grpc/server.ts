/**
 * The gRPC server: the Shard Distributor services, the standard health service
 * (`grpc.health.v1`) and server reflection (so `grpcurl` needs no proto files).
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import type { Logger } from "../../core/logger.ts";
import type { ShardManager } from "../../service/shard_manager.ts";
import { executorHandlers, routingHandlers } from "./handlers.ts";
import { executorService, packageDefinition, shardDistributorService } from "../../wire/proto.ts";
import { ReflectionService } from "@grpc/reflection";
import { addHealthService } from "./health_service.ts";
import { tolerantDefinition } from "./malformed.ts";

/**
 * Largest answer sent, in bytes: a snapshot of a large namespace is big.
 * Requests are bounded by `limits.maxReceiveMessageBytes`.
 */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** A running gRPC server. */
export interface GrpcServer {
  /** The bound address, `host:port` (the real port when 0 was asked). */
  readonly address: string;
  /** Stops accepting calls and waits for running ones, up to `graceMs`, then cancels them. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Serves both Shard Distributor services of `manager` on `address`.
 *
 * @example
 * ```ts ignore
 * const server = await startGrpcServer(manager, "127.0.0.1:0", logger);
 * console.log(server.address);
 * await server.stop();
 * ```
 */
export async function startGrpcServer(
  manager: ShardManager,
  address: string,
  logger: Logger,
): Promise<GrpcServer> {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": manager.limits.maxReceiveMessageBytes,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  });
  const context = { logger, observer: manager.observer };
  server.addService(tolerantDefinition(shardDistributorService), routingHandlers(manager, context));
  server.addService(tolerantDefinition(executorService), executorHandlers(manager, context));
  addHealthService(server, manager.health);
  new ReflectionService(packageDefinition).addToServer(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      address,
      grpc.ServerCredentials.createInsecure(),
      (error, port) => error ? reject(error) : resolve(port),
    )
  );
  const host = address.slice(0, address.lastIndexOf(":"));
  return {
    address: `${host}:${port}`,
    stop: (graceMs = 5_000) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
