/**
 * Commander argument parsers for smctl's value flags: a bad value becomes
 * commander's usage error (exit code 2) naming the flag and the value.
 *
 * @module
 */
import { InvalidArgumentError } from "commander";
import { parseDuration } from "./duration.ts";
import { parseJsonPath } from "./jsonpath.ts";
import { OUTPUT_FORMATS } from "./output.ts";

/**
 * Parses a duration flag (`--timeout 5s`) into ms.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { durationArgument } from "./arguments.ts";
 *
 * assert.equal(durationArgument("2m"), 120_000);
 * ```
 */
export function durationArgument(value: string): number {
  try {
    return parseDuration(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/**
 * Parses `-o`: one of the formats, or `jsonpath=TEMPLATE` (checked now, so a
 * bad template is a usage error before any call).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outputArgument } from "./arguments.ts";
 *
 * assert.equal(outputArgument("yaml"), "yaml");
 * assert.equal(outputArgument("jsonpath={.a}"), "jsonpath={.a}");
 * assert.throws(() => outputArgument("xml"), /table, wide, json, yaml or jsonpath=TEMPLATE/);
 * ```
 */
export function outputArgument(value: string): string {
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value;
  if (value.startsWith("jsonpath=")) {
    try {
      parseJsonPath(value.slice("jsonpath=".length));
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
    return value;
  }
  throw new InvalidArgumentError(
    `expected table, wide, json, yaml or jsonpath=TEMPLATE, got ${JSON.stringify(value)}`,
  );
}
