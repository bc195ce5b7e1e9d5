/**
 * YAML text → a value of a zod schema, with every issue located by its YAML
 * path and line. Shared by the configuration file and namespace definitions
 * (so both give the same errors). Private to the config package.
 *
 * @module
 */
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { issueMessage } from "./_issue_message.ts";
import { formatYamlPath, lineOfPath } from "./_yaml_locate.ts";
import { ConfigError, type ConfigIssue } from "./errors.ts";
import type { SectionSchema } from "./section_schema.ts";

/** What {@linkcode parseYaml} read: the validated value and the plain data it came from. */
export interface ParsedYaml<T> {
  /** The schema's output. */
  readonly value: T;
  /** The document as plain data (before defaults and conversions). */
  readonly data: unknown;
}

/**
 * Parses `text` and validates it with `schema`; throws `ConfigError` listing
 * every issue with its YAML path (under `pathPrefix`) and line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { parseYaml } from "./_parse_yaml.ts";
 *
 * assert.equal(parseYaml(z.object({ a: z.number() }), "a: 1").value.a, 1);
 * assert.throws(() => parseYaml(z.object({ a: z.number() }), "a: x"), /a: /);
 * ```
 */
export function parseYaml<T>(
  schema: SectionSchema<T>,
  text: string,
  options: { readonly source?: string; readonly what?: string } = {},
): ParsedYaml<T> {
  const errorOptions = options.source === undefined ? {} : { source: options.source };
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const issues = doc.errors.map((error): ConfigIssue => ({
      path: "",
      line: lineCounter.linePos(error.pos[0]).line,
      message: `invalid YAML: ${error.message}`,
    }));
    throw new ConfigError(issues, errorOptions);
  }
  if (doc.contents === null) {
    throw new ConfigError([{
      path: "",
      message: `the ${options.what ?? "configuration"} is empty`,
    }], errorOptions);
  }
  let data: unknown;
  try {
    data = doc.toJS(); // throws on excessive aliases ("billion laughs")
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([{ path: "", message: `invalid YAML: ${reason}` }], errorOptions);
  }
  const result = schema.safeParse(data, { error: issueMessage });
  if (result.success) return { value: result.data, data };
  const issues = result.error.issues.flatMap(toPathIssues).map((issue): ConfigIssue => ({
    path: formatYamlPath(issue.path),
    ...lineOf(lineOfPath(doc, lineCounter, issue.path)),
    message: issue.message,
  }));
  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  throw new ConfigError(issues, errorOptions);
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
