/**
 * Commander argument parsers for smctl's value flags: a bad value becomes
 * commander's usage error (exit code 2) naming the flag and the value.
 *
 * @module
 */
import { InvalidArgumentError } from "commander";
import { parseDuration } from "./duration.ts";

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
