/**
 * Messages for zod issues, written in YAML terms ("a mapping", "a list") and
 * ending with the offending value. Private to the config package.
 *
 * @module
 */
import type { z } from "zod";

const TYPE_NAMES: Readonly<Record<string, string>> = {
  object: "a mapping",
  array: "a list",
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  never: "nothing",
};

/**
 * Describes a parsed YAML value for an error message: strings are quoted,
 * mappings and lists are named rather than dumped.
 *
 * @example Usage
 * ```ts
 * import { describeValue } from "./_issue_message.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(describeValue("abc"), '"abc"');
 * assert.equal(describeValue([1]), "a list");
 * assert.equal(describeValue(null), "an empty value");
 * ```
 *
 * @param value The value to describe.
 * @returns A short description.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "an empty value";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return String(value);
}

/**
 * The per-parse zod error map of the config package; schemas that need a more
 * specific message set their own `error`, which takes precedence.
 *
 * @example Usage
 * ```ts
 * import { issueMessage } from "./_issue_message.ts";
 * import { z } from "zod";
 * import assert from "node:assert/strict";
 *
 * const result = z.string().safeParse(12, { error: issueMessage });
 * assert.equal(result.error?.issues[0]?.message, "expected a string, got 12");
 * ```
 *
 * @param issue The raw issue zod reports.
 * @returns The message, or `undefined` to fall back to zod's own.
 */
export function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  const got = `got ${describeValue(issue.input)}`;
  switch (issue.code) {
    case "invalid_type": {
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      return issue.input === undefined
        ? `required; expected ${expected}`
        : `expected ${expected}, ${got}`;
    }
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, ${got}`;
    case "too_small": {
      if (issue.origin !== "string" && issue.origin !== "array") {
        return `expected a number ${issue.inclusive ? "≥" : ">"} ${issue.minimum}, ${got}`;
      }
      if (Number(issue.minimum) <= 1) return "must not be empty";
      const what = issue.origin === "string" ? "characters" : "entries";
      return `expected at least ${issue.minimum} ${what}, ${got}`;
    }
    case "too_big":
      if (issue.origin === "string") {
        return `expected at most ${issue.maximum} characters, got ${String(issue.input).length}`;
      }
      return `expected a number ${issue.inclusive ? "≤" : "<"} ${issue.maximum}, ${got}`;
    case "invalid_format":
      return `expected a string matching ${issue.pattern ?? issue.format}, ${got}`;
    case "unrecognized_keys":
      return "unknown key";
    default:
      return undefined;
  }
}
