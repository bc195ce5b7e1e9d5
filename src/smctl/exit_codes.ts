/**
 * smctl's exit codes, one per kind of outcome, so scripts can tell a typo
 * from an outage.
 *
 * @module
 */

/**
 * Exit codes of smctl.
 *
 * | code | meaning                                                                |
 * | ---- | ---------------------------------------------------------------------- |
 * | 0    | success                                                                |
 * | 1    | any other error (an internal error of the service, a refused confirm)  |
 * | 2    | usage error: unknown command or flag, bad value, INVALID_ARGUMENT      |
 * | 3    | not found: unknown namespace, shard or executor                        |
 * | 4    | unavailable: the service or its store cannot be reached, or no answer in time |
 * | 5    | failed precondition, e.g. the shard is drained                         |
 * | 6    | `--wait` timed out before the drain finished                           |
 * | 7    | `executor can-stop`: some of the executors must wait (not all may stop now) |
 * | 130  | interrupted (Ctrl-C) while waiting for a drain                         |
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExitCode } from "./exit_codes.ts";
 *
 * assert.equal(ExitCode.NOT_FOUND, 3);
 * ```
 */
export const ExitCode = Object.freeze(
  {
    OK: 0,
    ERROR: 1,
    USAGE: 2,
    NOT_FOUND: 3,
    UNAVAILABLE: 4,
    FAILED_PRECONDITION: 5,
    WAIT_TIMEOUT: 6,
    MUST_WAIT: 7,
    INTERRUPTED: 130,
  } as const,
);

/** One of the values of {@linkcode ExitCode}. */
export type ExitCode = typeof ExitCode[keyof typeof ExitCode];
