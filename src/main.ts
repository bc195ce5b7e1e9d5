// deno-lint-ignore-file no-console -- the command line prints usage and config errors for people
/**
 * The Shard Manager service.
 *
 * ```sh
 * deno task start                           # demo: embedded store, no etcd needed
 * deno task start --config config/dev.yaml  # etcd, as configured
 * ```
 *
 * Flags: `--grpc-address 127.0.0.1:7943`, `--http-address 127.0.0.1:7944`, `--instance-id ID`,
 * `--data-dir DIR`.
 *
 * SIGHUP re-reads the configuration file and applies what changed in its
 * namespaces (logging each change, refusing with the reason what cannot be
 * applied live); other sections need a restart.
 *
 * SIGINT and SIGTERM stop it: leaderships are resigned at once so another
 * instance takes over without waiting for a lease to expire, then the process
 * exits and the kernel drops its connections. It does not send clients an
 * HTTP/2 GOAWAY first: Deno 2.9.4+'s `node:http2` crashed 7 of 8 executor
 * processes on it (tests/chaos/sigterm_repro.ts), 0 of 8 without it.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { startInstance, StartupError } from "./app.ts";
import { ConfigError, loadConfig } from "./config/mod.ts";
import { jsonLogger } from "./core/logger.ts";
import { heapGrowthProblem, processV8FlagSources } from "./heap_growth.ts";
import { raiseStoreFormat } from "./raise_store_format.ts";

const USAGE = `Usage: shard-manager [--config FILE] [--grpc-address HOST:PORT]
                     [--http-address HOST:PORT] [--instance-id ID] [--data-dir DIR]
       shard-manager --config FILE --raise-store-format N

  --config FILE          YAML configuration (see config/example.yaml for etcd). Without it,
                         the demo configuration (config/demo.yaml) runs one instance on the
                         embedded store: no etcd needed, state under .data/embedded.
  --grpc-address ADDR    overrides server.grpcAddress
  --http-address ADDR    overrides server.httpAddress (metrics, health, dashboard)
  --instance-id ID       this instance's id (default: <hostname>-<random>)
  --data-dir DIR         overrides shardDistribution.embedded.dataDir (embedded store only)
  --raise-store-format N raise the store's format to N and exit: only once every instance runs
                         this release and no rollback to an older one is wanted (see
                         docs/operations.md, "Upgrades and rollbacks")
  --help                 this text

Exit codes: 0 stopped by SIGINT or SIGTERM; 2 a wrong command line or configuration (an invalid
value, a config file that cannot be read); 1 the host refused a valid setting (a port in use, a
data directory that cannot be used, a store that cannot be opened, a store at a format newer than
this release reads). Either way stderr has one line naming the setting and its value, and nothing
is logged as started. A running instance also exits 1 when a newer release raises the store's
format past what it reads.`;

const DEMO_CONFIG = new URL("../config/demo.yaml", import.meta.url);

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: Deno.args,
      options: {
        config: { type: "string" },
        "grpc-address": { type: "string" },
        "http-address": { type: "string" },
        "instance-id": { type: "string" },
        "data-dir": { type: "string" },
        "raise-store-format": { type: "string" },
        help: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  let config;
  try {
    config = await loadConfig(args.config ?? DEMO_CONFIG);
    if (!args.config) {
      console.error(
        "No --config given: running the demo configuration (config/demo.yaml) on the embedded " +
          "store. Pass --config FILE to use etcd.",
      );
    }
    const dataDir = args["data-dir"];
    if (dataDir !== undefined) {
      const { embedded } = config.shardDistribution;
      if (!embedded) {
        console.error(
          "--data-dir applies only to the embedded store; this configuration uses etcd",
        );
        return 2;
      }
      embedded.dataDir = dataDir;
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  const logger = jsonLogger(config.log.level);
  const raise = args["raise-store-format"];
  if (raise !== undefined) return await raiseFormat(config, raise, logger);
  const heapProblem = heapGrowthProblem(processV8FlagSources());
  if (heapProblem) logger.warn(heapProblem);
  let instance;
  try {
    instance = await startInstance(config, logger, {
      ...(args["grpc-address"] ? { grpcAddress: args["grpc-address"] } : {}),
      ...(args["http-address"] ? { httpAddress: args["http-address"] } : {}),
      ...(args["instance-id"] ? { instanceId: args["instance-id"] } : {}),
    });
  } catch (error) {
    if (error instanceof StartupError) {
      console.error(error.message);
      return error.exitCode;
    }
    throw error;
  }
  const stopped = Promise.withResolvers<void>();
  const onSignal = (signal: string) => () => {
    logger.info("stopping", { signal });
    // The process exits next: its connections close without a GOAWAY (see app.ts).
    instance.stop({ keepConnections: true }).then(stopped.resolve, stopped.reject);
  };
  const configPath = args.config;
  let reloading = Promise.resolve();
  Deno.addSignalListener("SIGHUP", () => {
    reloading = reloading.then(() => reload(configPath, instance, logger)).catch((error) =>
      logger.error("configuration reload failed", { error })
    );
  });
  Deno.addSignalListener("SIGINT", onSignal("SIGINT"));
  Deno.addSignalListener("SIGTERM", onSignal("SIGTERM"));
  const refused = await Promise.race([
    stopped.promise.then(() => undefined),
    instance.refused,
  ]);
  if (refused) {
    console.error(`Stopped: ${refused.message}`);
    return 1;
  }
  logger.info("stopped");
  return 0;
}

/** `--raise-store-format N`: raises the store's format, says what it did, exits. */
async function raiseFormat(
  config: Parameters<typeof raiseStoreFormat>[0],
  text: string,
  logger: ReturnType<typeof jsonLogger>,
): Promise<number> {
  const version = /^\d+$/.test(text) ? Number(text) : NaN;
  try {
    const { before, after } = await raiseStoreFormat(config, version, logger);
    console.log(
      before === after
        ? `The store is already at format ${after}; nothing changed.`
        : `The store's format was raised from ${before} to ${after}.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof RangeError) {
      console.error(`--raise-store-format ${JSON.stringify(text)}: ${error.message}`);
      return 2;
    }
    console.error(`--raise-store-format: ${error instanceof Error ? error.message : error}`);
    return 1;
  }
}

/** SIGHUP: the file's namespaces again; an invalid file is refused as a whole. */
async function reload(
  path: string | undefined,
  instance: Awaited<ReturnType<typeof startInstance>>,
  logger: ReturnType<typeof jsonLogger>,
): Promise<void> {
  if (path === undefined) {
    logger.warn("SIGHUP ignored: no --config file to re-read (the demo configuration is fixed)");
    return;
  }
  logger.info("reloading the configuration file", { path });
  let config;
  try {
    config = await loadConfig(path);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logger.error("configuration reload refused: the file is invalid; nothing changed", {
      path,
      reason: error.message,
    });
    return;
  }
  const { namespaces, namespaceSpecs } = config.shardDistribution;
  const outcomes = await instance.manager.reloadFileNamespaces(namespaces, namespaceSpecs);
  logger.info("configuration reloaded", {
    path,
    namespaces: outcomes.filter((o) => o.action !== "unchanged").map((o) =>
      `${o.namespace}: ${o.action}`
    ),
    note: "only shardDistribution.namespaces is re-read; other sections need a restart",
  });
}

if (import.meta.main) Deno.exit(await main());
