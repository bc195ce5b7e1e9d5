/**
 * Wiring: from a validated configuration to a running instance (stores,
 * service, gRPC server). `main.ts` adds the command line and signals.
 *
 * @module
 */
import type { Config } from "./config/mod.ts";
import type { Logger } from "./core/logger.ts";
import { runtimeProblem } from "./core/runtime_check.ts";
import { ShardManager } from "./service/shard_manager.ts";
import { advertisedAddress } from "./service/advertisement.ts";
import { openStores } from "./open_stores.ts";
import { type GrpcServer, startGrpcServer } from "./transport/grpc/server.ts";
import { serverCredentials } from "./transport/grpc/server_credentials.ts";
import { Authorizer } from "./security/mod.ts";
import { dashboardRoutes } from "./transport/http/dashboard/mod.ts";
import { PrometheusMetrics } from "./metrics/prometheus_metrics.ts";
import { healthRoutes } from "./transport/http/health_routes.ts";
import { metricsRoute } from "./transport/http/metrics_route.ts";
import { type HttpServer, startHttpServer } from "./transport/http/http_server.ts";

/** A running instance. */
export interface RunningInstance {
  /** The service. */
  readonly manager: ShardManager;
  /** The gRPC server. */
  readonly server: GrpcServer;
  /** The HTTP server: metrics, health, dashboard. */
  readonly http: HttpServer;
  /**
   * Stop: resign leaderships, close stores and, unless `keepConnections`, let
   * the servers finish their calls and close their connections. A process
   * about to exit passes `keepConnections: true`: the kernel then drops the
   * connections without an HTTP/2 GOAWAY, which Deno 2.9.4+'s `node:http2` in
   * clients can crash on (see docs/reliability.md); clients reconnect and
   * retry elsewhere either way.
   */
  stop(options?: { readonly keepConnections?: boolean }): Promise<void>;
}

/** Options of {@linkcode startInstance}. */
export interface StartOptions {
  /** Instance id. @default {`<hostname>-<8 random hex digits>`} */
  readonly instanceId?: string;
  /** Overrides `server.grpcAddress`. */
  readonly grpcAddress?: string;
  /** Overrides `server.httpAddress`. */
  readonly httpAddress?: string;
}

/** A start-up failure caused by the configuration's files or secrets; its message says which. */
export class StartupError extends Error {
  /** Builds the error. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StartupError";
  }
}

/** Connects to the stores named in `config`, then serves. */
export async function startInstance(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningInstance> {
  const problem = runtimeProblem(Deno.version.deno);
  if (problem) logger.warn("unsafe Deno runtime", { deno: Deno.version.deno, problem });
  // Certificates, keys and tokens are read first: a bad file stops the start before anything runs.
  let credentials, authorizer, opened;
  try {
    credentials = serverCredentials(config.security?.tls);
    const auth = config.security?.auth;
    authorizer = auth ? await Authorizer.create(auth) : undefined;
    opened = await openStores(config.shardDistribution, logger);
  } catch (error) {
    throw new StartupError(`Cannot start: ${(error as Error).message}`, { cause: error });
  }
  const { store, leaderStore } = opened;
  const metrics = new PrometheusMetrics();
  const manager = new ShardManager({
    observer: metrics,
    config,
    store,
    leaderStore,
    logger,
    instanceId: options.instanceId ?? defaultInstanceId(),
  });
  metrics.watch(manager);
  await manager.start();
  const server = await startGrpcServer(
    manager,
    options.grpcAddress ?? config.server.grpcAddress,
    logger,
    {
      credentials,
      forwardToLeader: config.security?.tls === undefined,
      ...(authorizer ? { authorizer } : {}),
    },
  );
  const http = await startHttpServer(
    options.httpAddress ?? config.server.httpAddress,
    logger,
    [
      healthRoutes(manager.health),
      metricsRoute(metrics),
      dashboardRoutes(manager, {
        allowActions: config.server.dashboardActions,
        ...(authorizer ? { authorizer, logger } : {}),
      }),
    ],
  );
  const host = hostName();
  const grpcAddress = advertisedAddress(server.address, host);
  manager.advertise({
    instanceName: config.server.instanceName ??
      `${host}:${grpcAddress.slice(grpcAddress.lastIndexOf(":") + 1)}`,
    grpcAddress,
    httpAddress: advertisedAddress(http.address, host),
  });
  logger.info("listening", {
    address: server.address,
    httpAddress: http.address,
    instanceId: manager.instanceId,
  });
  let stopping: Promise<void> | undefined;
  return {
    manager,
    server,
    http,
    stop: (options = {}) =>
      stopping ??= (async () => {
        // Resign at once (another instance takes over without waiting for a
        // lease to expire) while the server finishes its calls; stopping the
        // manager also ends watch streams, so the server need not wait for them.
        const servers = options.keepConnections ? [] : [server.stop(), http.stop()];
        await Promise.all([manager.stop(), ...servers]);
        await store.close();
        await leaderStore.close();
      })(),
  };
}

function hostName(): string {
  try {
    return Deno.hostname();
  } catch {
    return "localhost"; // no --allow-sys
  }
}

/** A readable id that operators can map to a host: `<hostname>-<8 random hex digits>`. */
export function defaultInstanceId(): string {
  let host = "instance";
  try {
    host = Deno.hostname();
  } catch { /* no --allow-sys: keep the generic name */ }
  return `${host}-${crypto.randomUUID().slice(0, 8)}`;
}
