/**
 * Reading a YAML configuration into a typed {@linkcode Config}.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseYaml } from "./_parse_yaml.ts";
import { ConfigError } from "./errors.ts";
import { configSchema } from "./schema.ts";
import type { Config } from "./types.ts";
import type { NamespaceSpec } from "./namespace_types.ts";

/**
 * Parses and validates a YAML configuration.
 *
 * Note: the `yaml` package reads the `LOG_TOKENS` and `LOG_STREAM` environment
 * variables, so this needs `--allow-env` (at least for those two names).
 *
 * @example Usage
 * ```ts
 * import { parseConfig } from "./load.ts";
 * import assert from "node:assert/strict";
 *
 * const config = parseConfig(`
 * shardDistribution:
 *   namespaces:
 *     - name: orders
 *       type: fixed
 *       shardNum: 32
 *   leaderStore:
 *     storageParams:
 *       endpoints: [localhost:2379]
 *   store:
 *     storageParams:
 *       endpoints: [localhost:2379]
 * `);
 * const [orders] = config.shardDistribution.namespaces;
 * assert.ok(orders?.kind === "fixed");
 * assert.equal(orders.shardNum, 32);
 * assert.equal(config.shardDistribution.election.leaderPeriodMs, 60_000);
 * ```
 *
 * @param text The YAML text.
 * @param source Where the text came from, e.g. its file path; used in messages.
 * @returns The configuration with defaults applied and durations in milliseconds.
 * @throws {ConfigError} If the text is not valid YAML or does not match the schema;
 * the error lists every issue with its YAML path and line.
 */
export function parseConfig(text: string, source?: string): Config {
  const { value, data } = parseYaml(configSchema, text, source === undefined ? {} : { source });
  // Each namespace keeps the entry it was read from: what is stored and printed back.
  const raw = (data as { shardDistribution?: { namespaces?: unknown[] } }).shardDistribution
    ?.namespaces;
  const specs = value.shardDistribution.namespaces.map((_, i) => raw?.[i]);
  if (specs.every(isSpec)) value.shardDistribution.namespaceSpecs = specs;
  return value;
}

function isSpec(entry: unknown): entry is NamespaceSpec {
  return typeof entry === "object" && entry !== null && !Array.isArray(entry);
}

/**
 * Reads, parses and validates a YAML configuration file.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ConfigError } from "./errors.ts";
 * import { loadConfig } from "./load.ts";
 *
 * const path = await Deno.makeTempFile({ suffix: ".yaml" });
 * await Deno.writeTextFile(path, `
 * shardDistribution:
 *   namespaces: [{ name: orders, type: fixed, shardNum: 8 }]
 *   embedded: { dataDir: .data/embedded }
 *   process: { heartbeatTTL: 3s }
 * `);
 * const config = await loadConfig(path);
 * assert.equal(config.shardDistribution.process.heartbeatTtlMs, 3_000);
 * assert.equal(config.server.grpcAddress, "127.0.0.1:7943"); // a default
 * await Deno.writeTextFile(path, "shardDistribution: { namespaces: [] }\n");
 * await assert.rejects(loadConfig(path), ConfigError);
 * await Deno.remove(path);
 * ```
 *
 * @param path The file to read.
 * @returns The configuration with defaults applied and durations in milliseconds.
 * @throws {ConfigError} If the file cannot be read, is not valid YAML or does not
 * match the schema.
 */
export async function loadConfig(path: string | URL): Promise<Config> {
  const source = path instanceof URL && path.protocol === "file:"
    ? fileURLToPath(path)
    : String(path);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([{ path: "", message: `could not read the file: ${reason}` }], {
      source,
      cause: error,
    });
  }
  return parseConfig(text, source);
}
