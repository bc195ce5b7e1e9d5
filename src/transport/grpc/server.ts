/**
 * The gRPC server: the Shard Distributor services, the standard health service
 * (`grpc.health.v1`) and server reflection (so `grpcurl` needs no proto files).
 *
 * @module
 */
import { LeaderForwarder } from "./leader_forwarder.ts";
import * as grpc from "@grpc/grpc-js";
import { type Clock, startTimer, systemClock } from "../../core/clock.ts";
import type { Logger } from "../../core/logger.ts";
import type { Service } from "../../service/mod.ts";
import { routingHandlers } from "./handlers.ts";
import { executorHandlers, heartbeatAnswerer } from "./heartbeat_handler.ts";
import { assignmentWatchHandler } from "./assignment_watch_handler.ts";
import { installFastPath, passEncodedThrough, splitHeartbeatReports } from "./fast_path/mod.ts";
import { executorService, shardDistributorService } from "../../wire/proto.ts";
import { packageDefinition } from "../../wire/package_definition.ts";
import { ReflectionService } from "@grpc/reflection";
import { addHealthService, healthPackageDefinition } from "./health_service.ts";
import type { Authorizer } from "../../security/mod.ts";
import { guardHandlers } from "./auth_guard.ts";
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

/** Options of {@linkcode startGrpcServer}. */
export interface GrpcServerOptions {
  /** Transport security (see `server_credentials.ts`). @default {plaintext} */
  readonly credentials?: grpc.ServerCredentials;
  /** Forward moves to the leader (plaintext). @default {true without `credentials`} */
  readonly forwardToLeader?: boolean;
  /** Checks each call of the Shard Distributor services; health and reflection stay open. @default {every call allowed} */
  readonly authorizer?: Authorizer;
  /**
   * Serve Heartbeat calls on the Heartbeat lane (`fast_path/heartbeat_lane.ts`) rather
   * than through grpc-js; never with an `authorizer`. @default {true}
   */
  readonly heartbeatLane?: boolean;
  /**
   * A busy plaintext connection reads at most once per this many ms
   * (`fast_path/read_moderator.ts`); 0 leaves reads alone. @default {0}
   */
  readonly readWindowMs?: number;
  /** Whose timers the server uses (deadline sweeps, read windows, shutdown grace). @default {systemClock} */
  readonly clock?: Clock;
}

/**
 * Serves both Shard Distributor services of `service` on `address`.
 *
 * @example
 * ```ts ignore
 * const server = await startGrpcServer(service, "127.0.0.1:0", logger);
 * console.log(server.address);
 * await server.stop();
 * ```
 */
export async function startGrpcServer(
  service: Service,
  address: string,
  logger: Logger,
  options: GrpcServerOptions = {},
): Promise<GrpcServer> {
  const clock = options.clock ?? systemClock;
  const server = new grpc.Server({
    "grpc.max_receive_message_length": service.limits.maxReceiveMessageBytes,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  });
  // Forwarding reaches the leader in plaintext, so only a plaintext server forwards;
  // with TLS a non-leader answers FAILED_PRECONDITION naming the leader and its address.
  const forwarder = (options.forwardToLeader ?? options.credentials === undefined)
    ? new LeaderForwarder((namespace) => service.routing.leaderAddress(namespace))
    : undefined;
  const context = {
    logger,
    observer: service.observer,
    audit: service.audit,
    ...(forwarder ? { forwarder } : {}),
  };
  const { authorizer } = options;
  const routing = routingHandlers(service, context);
  const answer = heartbeatAnswerer(service.heartbeats);
  const executor = executorHandlers(
    context,
    answer,
    assignmentWatchHandler(service.routing, context),
  );
  const routingDefinition = passEncodedThrough(
    tolerantDefinition(shardDistributorService),
    "WatchNamespaceState",
  );
  const executorDefinition = passEncodedThrough(
    tolerantDefinition(splitHeartbeatReports(executorService, "Heartbeat")),
    "Heartbeat",
  );
  server.addService(
    routingDefinition,
    authorizer ? guardHandlers(routingDefinition, routing, authorizer, context) : routing,
  );
  server.addService(
    executorDefinition,
    authorizer ? guardHandlers(executorDefinition, executor, authorizer, context) : executor,
  );
  addHealthService(server, service.health);
  new ReflectionService({ ...packageDefinition, ...healthPackageDefinition() }).addToServer(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      address,
      options.credentials ?? grpc.ServerCredentials.createInsecure(),
      (error, port) => error ? reject(error) : resolve(port),
    )
  );
  // The ways around grpc-js (fast_path/): what this runtime lacks is said once, and the calls
  // it concerns go through plain grpc-js.
  const heartbeat = executorDefinition.Heartbeat;
  const fastPath = await installFastPath(server, {
    lane: (options.heartbeatLane ?? true) && !authorizer
      ? {
        path: heartbeat.path,
        maxReceiveBytes: service.limits.maxReceiveMessageBytes,
        maxSendBytes: MAX_MESSAGE_BYTES,
        deserialize: (bytes) => heartbeat.requestDeserialize(bytes),
        answer,
        context,
        clock,
      }
      : undefined,
    readWindowMs: options.readWindowMs ?? 0,
    clock,
    logger,
  });
  const host = address.slice(0, address.lastIndexOf(":"));
  return {
    address: `${host}:${port}`,
    stop: (graceMs = 5_000) =>
      new Promise<void>((resolve) => {
        const force = startTimer(clock, graceMs, () => {
          server.forceShutdown();
          resolve();
        });
        forwarder?.close();
        fastPath.close();
        server.tryShutdown(() => {
          force();
          resolve();
        });
      }),
  };
}
