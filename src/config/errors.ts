/**
 * The error thrown for a configuration that cannot be read or is invalid.
 *
 * @module
 */

/** One problem found in a configuration file. */
export interface ConfigIssue {
  /** YAML path of the offending value, e.g. `shardDistribution.namespaces[1].shardNum`; `""` for the whole file. */
  path: string;
  /** 1-based line of the offending value (or of its nearest present parent). */
  line?: number;
  /** What is wrong, e.g. `expected an integer from 1 to 10000000, got "abc"`. */
  message: string;
}

/** Options for {@linkcode ConfigError}. */
export interface ConfigErrorOptions {
  /** Where the configuration came from, usually its file path. */
  source?: string;
  /** The underlying error, e.g. the one from reading the file. */
  cause?: unknown;
}

/**
 * A configuration file could not be read, is not valid YAML, or does not match
 * the schema. The message lists every issue, one per line, as
 * `source:line: path: message`; `path` and `line` are those of the first issue.
 *
 * @example Usage
 * ```ts
 * import { ConfigError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new ConfigError(
 *   [{ path: "log.level", line: 3, message: 'expected one of "debug", "info", "warn", "error", got "loud"' }],
 *   { source: "config/dev.yaml" },
 * );
 * assert.equal(
 *   error.message,
 *   'config/dev.yaml:3: log.level: expected one of "debug", "info", "warn", "error", got "loud"',
 * );
 * assert.equal(error.path, "log.level");
 * assert.equal(error.line, 3);
 * ```
 */
export class ConfigError extends Error {
  override name = "ConfigError";
  /** YAML path of the first issue; `""` when the issue concerns the whole file. */
  readonly path: string;
  /** Line of the first issue, when known. */
  readonly line?: number;
  /** Where the configuration came from, when known. */
  readonly source?: string;
  /** Every issue found, in document order of discovery. */
  readonly issues: readonly ConfigIssue[];

  /**
   * @param issues The problems found; at least one.
   * @param options Where the configuration came from and the underlying error.
   */
  constructor(issues: readonly ConfigIssue[], options: ConfigErrorOptions = {}) {
    if (issues.length === 0) throw new RangeError("Cannot create a ConfigError without issues");
    super(
      issues.map((issue) => formatConfigIssue(issue, options.source)).join("\n"),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    const first = issues[0]!;
    this.path = first.path;
    if (first.line !== undefined) this.line = first.line;
    if (options.source !== undefined) this.source = options.source;
    this.issues = issues;
  }
}

/**
 * Formats one issue as `source:line: path: message`, leaving out whatever is
 * unknown (without a source the line is written as `line 12`).
 *
 * @example Usage
 * ```ts
 * import { formatConfigIssue } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const issue = { path: "server.grpcAddress", line: 7, message: "must not be empty" };
 * assert.equal(formatConfigIssue(issue, "a.yaml"), "a.yaml:7: server.grpcAddress: must not be empty");
 * assert.equal(formatConfigIssue(issue), "line 7: server.grpcAddress: must not be empty");
 * ```
 *
 * @param issue The issue to format.
 * @param source Where the configuration came from, usually its file path.
 * @returns The issue on one line.
 */
export function formatConfigIssue(issue: ConfigIssue, source?: string): string {
  const where = source === undefined
    ? (issue.line === undefined ? undefined : `line ${issue.line}`)
    : (issue.line === undefined ? source : `${source}:${issue.line}`);
  return [where, issue.path || undefined, issue.message]
    .filter((part) => part !== undefined)
    .join(": ");
}
