/**
 * Wiring: from a validated configuration to a running instance (stores,
 * service, gRPC server). `main.ts` adds the command line and signals.
 *
 * @module
 */
import type { Config } from "./config/mod.ts";
import { systemClock } from "./core/clock.ts";
import type { Logger } from "./core/logger.ts";
import { runtimeProblem } from "./core/runtime_check.ts";
import { ShardManager } from "./service/shard_manager.ts";
import { stopWithin } from "./service/stop_within.ts";
import { advertisedAddress } from "./service/advertisement.ts";
import { openStoreFormat, openStores } from "./open_stores.ts";
import { type GrpcServer, startGrpcServer } from "./transport/grpc/server.ts";
import { serverCredentials } from "./transport/grpc/server_credentials.ts";
import { DEFAULT_READ_WINDOW_MS } from "./transport/grpc/fast_path/mod.ts";
import { Authorizer } from "./security/mod.ts";
import {
  dashboardRoutes,
  ExecutorSamples,
  runExecutorSampler,
} from "./transport/http/dashboard/mod.ts";
import { PrometheusMetrics } from "./metrics/prometheus_metrics.ts";
import { healthRoutes } from "./transport/http/health_routes.ts";
import { metricsRoute } from "./transport/http/metrics_route.ts";
import { type HttpServer, startHttpServer } from "./transport/http/http_server.ts";
import { listenProblem, parseListenAddress } from "./listen_check.ts";
import { storeStartWaitFromEnv, whenStoreAnswers } from "./store_start_wait.ts";

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
   * retry elsewhere either way. Never hangs: each step waits at most
   * `STOP_WAIT_MS` (8 s), then logs what is still running and goes on.
   */
  stop(options?: { readonly keepConnections?: boolean }): Promise<void>;
  /**
   * Resolves, after the instance stopped itself (as `stop` with
   * `keepConnections`), if it could not go on: the store was raised to a
   * format this release cannot read. Never resolves otherwise.
   */
  readonly refused: Promise<Error>;
}

/** Options of {@linkcode startInstance}. */
export interface StartOptions {
  /** Instance id. @default {`<hostname>-<8 random hex digits>`} */
  readonly instanceId?: string;
  /** Overrides `server.grpcAddress`. */
  readonly grpcAddress?: string;
  /** Overrides `server.httpAddress`. */
  readonly httpAddress?: string;
  /** Time between the dashboard's samples of executors' shards and load (tests shorten it). @default {15000} */
  readonly dashboardSampleIntervalMs?: number;
}

/**
 * A start-up failure: one line naming the setting and its value. `exitCode` is
 * 2 when the value itself is wrong (fix the configuration or the command line),
 * 1 when the host refused it (a port in use, a file or directory that cannot be
 * read, a store that cannot be opened).
 */
export class StartupError extends Error {
  /** The process exit code `main.ts` uses: 2 for a wrong value, 1 for a refusal. */
  readonly exitCode: 1 | 2;
  /** Builds the error. */
  constructor(message: string, options?: ErrorOptions & { readonly exitCode?: 1 | 2 }) {
    super(message, options);
    this.name = "StartupError";
    this.exitCode = options?.exitCode ?? 1;
  }
}

/** A listen address with the setting it came from, for messages. */
interface Listen {
  readonly key: string;
  readonly value: string;
}

/** Checks both listen addresses before anything starts: shape first (exit 2), then free (exit 1). */
function checkListenAddresses(listens: readonly Listen[]): void {
  for (const { key, value } of listens) {
    const parsed = parseListenAddress(value);
    if (typeof parsed === "string") {
      throw new StartupError(`Cannot start: ${key} ${JSON.stringify(value)}: ${parsed}`, {
        exitCode: 2,
      });
    }
  }
  for (const { key, value } of listens) {
    const problem = listenProblem(parseListenAddress(value) as { hostname: string; port: number });
    if (problem) {
      throw new StartupError(`Cannot start: ${key} ${JSON.stringify(value)}: ${problem}`);
    }
  }
}

/** The first line of an error's message. */
function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0]!;
}

/** The reason of a failed bind, shortened to what an operator needs. */
function bindReason(error: unknown): string {
  const text = String((error as Error)?.message ?? error);
  if (/EADDRINUSE|address already in use/i.test(text)) return "the address is already in use";
  if (/EACCES|permission denied/i.test(text)) return "permission denied";
  return firstLine(error);
}

/**
 * `SM_READ_WINDOW_MS` (docs/operations.md, "Capacity notes"): 0 (reads left
 * alone) when unset, `off` or `0`; `on` for the moderator's default window;
 * else whole milliseconds from 1 to 1000. Anything else stops the start.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readWindowFromEnv } from "./app.ts";
 *
 * assert.equal(readWindowFromEnv(undefined), 0);
 * assert.equal(readWindowFromEnv("off"), 0);
 * assert.equal(readWindowFromEnv("on"), 10);
 * assert.equal(readWindowFromEnv(" 20 "), 20);
 * assert.throws(() => readWindowFromEnv("fast"));
 * ```
 */
export function readWindowFromEnv(value: string | undefined): number {
  if (value === undefined) return 0;
  const text = value.trim().toLowerCase();
  if (text === "off") return 0;
  if (text === "on") return DEFAULT_READ_WINDOW_MS;
  const ms = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(ms >= 0 && ms <= 1_000)) {
    throw new StartupError(
      `Cannot start: SM_READ_WINDOW_MS ${JSON.stringify(value)}: ` +
        "give on, off, or whole milliseconds from 0 to 1000",
    );
  }
  return ms;
}

/** Connects to the stores named in `config`, then serves. */
export async function startInstance(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningInstance> {
  const problem = runtimeProblem(Deno.version.deno);
  if (problem) logger.warn("unsafe Deno runtime", { deno: Deno.version.deno, problem });
  const grpcListen: Listen = options.grpcAddress
    ? { key: "--grpc-address", value: options.grpcAddress }
    : { key: "server.grpcAddress", value: config.server.grpcAddress };
  const httpListen: Listen = options.httpAddress
    ? { key: "--http-address", value: options.httpAddress }
    : { key: "server.httpAddress", value: config.server.httpAddress };
  checkListenAddresses([grpcListen, httpListen]);
  const readWindowMs = readWindowFromEnv(Deno.env.get("SM_READ_WINDOW_MS"));
  let storeWaitMs;
  try {
    storeWaitMs = storeStartWaitFromEnv(Deno.env.get("SM_STORE_START_WAIT"));
  } catch (error) {
    throw new StartupError(`Cannot start: ${(error as Error).message}`);
  }
  // Certificates, keys and tokens are read first: a bad file stops the start before anything runs.
  let credentials, authorizer, opened;
  try {
    credentials = serverCredentials(config.security?.tls);
    const auth = config.security?.auth;
    authorizer = auth ? await Authorizer.create(auth) : undefined;
  } catch (error) {
    throw new StartupError(`Cannot start: ${(error as Error).message}`, { cause: error });
  }
  try {
    opened = await openStores(config.shardDistribution, logger);
  } catch (error) {
    const dir = config.shardDistribution.embedded?.dataDir;
    const what = dir === undefined
      ? ""
      : `shardDistribution.embedded.dataDir ${JSON.stringify(dir)}: `;
    throw new StartupError(`Cannot start: ${what}${firstLine(error)}`, { cause: error });
  }
  const { store, leaderStore } = opened;
  // A format newer than this release reads stops the start (exit 1) instead of being misread.
  // A store that does not answer yet (etcd without quorum) is waited for (store_start_wait.ts).
  const storeFormat = await whenStoreAnswers(() => openStoreFormat(opened, logger), logger, {
    waitMs: storeWaitMs,
  }).catch(async (error) => {
    await Promise.all([store.close(), leaderStore.close()]);
    throw new StartupError(`Cannot start: ${firstLine(error)}`, { cause: error });
  });
  const metrics = new PrometheusMetrics();
  const manager = new ShardManager({
    observer: metrics,
    config,
    store,
    leaderStore,
    logger,
    instanceId: options.instanceId ?? defaultInstanceId(),
    storeFormat,
  });
  metrics.watch(manager);
  await manager.start();
  // The dashboard's sparklines: each executor's shards and load over the last hour.
  const samples = new ExecutorSamples(
    options.dashboardSampleIntervalMs === undefined
      ? {}
      : { intervalMs: options.dashboardSampleIntervalMs },
  );
  const sampling = new AbortController();
  const sampler = runExecutorSampler(manager, samples, { signal: sampling.signal });
  // Both listeners are bound before anything says "started"; a port taken since the check above
  // stops the instance again with one line, not a stack trace.
  let server: GrpcServer | undefined;
  let http: HttpServer | undefined;
  try {
    server = await startGrpcServer(manager, grpcListen.value, logger, {
      credentials,
      forwardToLeader: config.security?.tls === undefined,
      ...(authorizer ? { authorizer } : {}),
      // The escape hatch of docs/operations.md: Heartbeat calls through grpc-js again.
      heartbeatLane: Deno.env.get("SM_HEARTBEAT_LANE")?.trim().toLowerCase() !== "off",
      // docs/operations.md, "Capacity notes": off unless SM_READ_WINDOW_MS turns it on.
      readWindowMs,
    }).catch((error) => {
      throw new StartupError(
        `Cannot start: ${grpcListen.key} ${JSON.stringify(grpcListen.value)}: ${bindReason(error)}`,
        { cause: error },
      );
    });
    http = await startHttpServer(httpListen.value, logger, [
      healthRoutes(manager.health),
      metricsRoute(metrics),
      dashboardRoutes(manager, {
        allowActions: config.server.dashboardActions,
        samples,
        ...(authorizer ? { authorizer, logger } : {}),
      }),
    ]).catch((error) => {
      throw new StartupError(
        `Cannot start: ${httpListen.key} ${JSON.stringify(httpListen.value)}: ${bindReason(error)}`,
        { cause: error },
      );
    });
  } catch (error) {
    sampling.abort();
    await Promise.all([manager.stop(), server?.stop(0), sampler]);
    await store.close();
    await leaderStore.close();
    throw error;
  }
  const grpcServer = server;
  const httpServer = http;
  const host = hostName();
  const grpcAddress = advertisedAddress(grpcServer.address, host);
  manager.advertise({
    instanceName: config.server.instanceName ??
      `${host}:${grpcAddress.slice(grpcAddress.lastIndexOf(":") + 1)}`,
    grpcAddress,
    httpAddress: advertisedAddress(httpServer.address, host),
  });
  logger.info("listening", {
    address: grpcServer.address,
    httpAddress: httpServer.address,
    instanceId: manager.instanceId,
  });
  logger.info("shard manager started", {
    instanceId: manager.instanceId,
    namespaces: manager.routing.listNamespaces().map((ns) => ns.name),
  });
  let stopping: Promise<void> | undefined;
  const following = new AbortController();
  const stop: RunningInstance["stop"] = (options = {}) =>
    stopping ??= (async () => {
      // Resign at once (another instance takes over without waiting for a
      // lease to expire) while the server finishes its calls; stopping the
      // manager also ends watch streams, so the server need not wait for them.
      following.abort();
      sampling.abort();
      const stopped = manager.stop();
      await stopWithin("the listeners", logger, systemClock, {
        "gRPC server": options.keepConnections ? undefined : grpcServer.stop(),
        "HTTP server": options.keepConnections ? undefined : httpServer.stop(),
        "metrics sampler": sampler,
      });
      await stopped.finally(async () => {
        await store.close();
        await leaderStore.close();
      });
    })();
  // A newer release raised the store's format under us: stop rather than misread it.
  const refused = store.format.watchUnreadable(following.signal).then((error) =>
    error === undefined ? new Promise<Error>(() => {}) : (async () => {
      logger.error("stopping: the store's format changed to one this release cannot read", {
        reason: error.message,
      });
      await stop({ keepConnections: true });
      return error;
    })()
  ).catch((error) => {
    logger.error("watching the store's format failed; no longer watched", { error });
    return new Promise<Error>(() => {});
  });
  return { manager, server: grpcServer, http: httpServer, stop, refused };
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
