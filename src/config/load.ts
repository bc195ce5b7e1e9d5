/**
 * Reading a YAML configuration into a typed {@linkcode Config}.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { issueMessage } from "./_issue_message.ts";
import { formatYamlPath, lineOfPath } from "./_yaml_locate.ts";
import { ConfigError, type ConfigIssue } from "./errors.ts";
import { configSchema } from "./schema.ts";
import type { Config } from "./types.ts";

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
  const options = source === undefined ? {} : { source };
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const issues = doc.errors.map((error): ConfigIssue => ({
      path: "",
      line: lineCounter.linePos(error.pos[0]).line,
      message: `invalid YAML: ${error.message}`,
    }));
    throw new ConfigError(issues, options);
  }

  if (doc.contents === null) {
    throw new ConfigError([{ path: "", message: "the configuration is empty" }], options);
  }

  let data: unknown;
  try {
    data = doc.toJS(); // throws on excessive aliases ("billion laughs")
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([{ path: "", message: `invalid YAML: ${reason}` }], options);
  }

  const result = configSchema.safeParse(data, { error: issueMessage });
  if (result.success) return result.data;
  const issues = result.error.issues.flatMap(toPathIssues).map((issue): ConfigIssue => ({
    path: formatYamlPath(issue.path),
    ...lineOf(lineOfPath(doc, lineCounter, issue.path)),
    message: issue.message,
  }));
  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  throw new ConfigError(issues, options);
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

interface PathIssue {
  path: PropertyKey[];
  message: string;
}

/** Splits an unknown-keys issue into one issue per key, located at that key. */
function toPathIssues(issue: z.core.$ZodIssue): PathIssue[] {
  if (issue.code !== "unrecognized_keys") return [{ path: issue.path, message: issue.message }];
  return issue.keys.map((key) => ({
    path: [...issue.path, key],
    message: `unknown key ${JSON.stringify(key)}; ${issue.message}`,
  }));
}

function lineOf(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}
