// deno-lint-ignore-file no-console -- the command line prints usage and config errors for people
/**
 * The Shard Manager service.
 *
 * ```sh
 * deno task start --config config/dev.yaml [--grpc-address 127.0.0.1:7943] [--instance-id ID]
 * ```
 *
 * SIGINT and SIGTERM stop it gracefully: leaderships are resigned at once so
 * another instance takes over without waiting for a lease to expire.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { startInstance } from "./app.ts";
import { ConfigError, loadConfig } from "./config/mod.ts";
import { jsonLogger } from "./core/logger.ts";

const USAGE = `Usage: shard-manager --config FILE [--grpc-address HOST:PORT] [--instance-id ID]

  --config FILE          YAML configuration (see config/example.yaml)
  --grpc-address ADDR    overrides server.grpcAddress
  --instance-id ID       this instance's id (default: <hostname>-<random>)
  --help                 this text`;

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: Deno.args,
      options: {
        config: { type: "string" },
        "grpc-address": { type: "string" },
        "instance-id": { type: "string" },
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
  if (!args.config) {
    console.error(`Missing --config.\n\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = await loadConfig(args.config);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  const logger = jsonLogger(config.log.level);
  const instance = await startInstance(config, logger, {
    ...(args["grpc-address"] ? { grpcAddress: args["grpc-address"] } : {}),
    ...(args["instance-id"] ? { instanceId: args["instance-id"] } : {}),
  });
  const stopped = Promise.withResolvers<void>();
  const onSignal = (signal: string) => () => {
    logger.info("stopping", { signal });
    instance.stop().then(stopped.resolve, stopped.reject);
  };
  Deno.addSignalListener("SIGINT", onSignal("SIGINT"));
  Deno.addSignalListener("SIGTERM", onSignal("SIGTERM"));
  await stopped.promise;
  logger.info("stopped");
  return 0;
}

if (import.meta.main) Deno.exit(await main());
