/**
 * Crashes of the child processes that tests and benchmarks start (service
 * instances, SDK processes, benchmark workers): a child that died of a signal
 * no harness sends, or that printed a native crash (a Rust panic, a V8 fatal
 * error, a C assertion), is reported on this process's stderr in one block
 * that `.ci/guard` recognises, with the command, the exit status and the last
 * lines of the child's stderr. A child's output is piped, so without this a
 * crash would only show if the test that owned it happened to print its logs.
 *
 * @module
 */

/** Signals that only a crash delivers: no test or benchmark sends them. */
const CRASH_SIGNALS: ReadonlySet<string> = new Set([
  "SIGABRT",
  "SIGSEGV",
  "SIGBUS",
  "SIGILL",
  "SIGFPE",
  "SIGTRAP",
  "SIGSYS",
]);

/** What a runtime prints when it dies natively: Deno's panic hook, V8, glibc, nghttp2's assert. */
export const NATIVE_CRASH_TEXT: RegExp =
  /Deno has panicked|A panic occurred in Deno|thread '[^']*' panicked at|Fatal error in |# Check failed|Assertion .* failed|free\(\): |double free|fatal runtime error/;

/** The first line of a crash report; `.ci/guard` looks for it. */
export const CRASH_REPORT_MARK = "CHILD PROCESS CRASHED";

/**
 * Why `status` and `stderr` are a crash, or undefined when they are not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { crashOf } from "./child_crash.ts";
 *
 * assert.equal(crashOf({ success: false, code: 134, signal: "SIGABRT" }, ""), "killed by SIGABRT");
 * assert.equal(crashOf({ success: false, code: 137, signal: "SIGKILL" }, ""), undefined);
 * assert.match(crashOf({ success: false, code: 1, signal: null }, "thread 'main' panicked at x.rs:1:1")!, /panicked/);
 * assert.equal(crashOf({ success: true, code: 0, signal: null }, "all good"), undefined);
 * ```
 */
export function crashOf(status: Deno.CommandStatus, stderr: string): string | undefined {
  if (status.signal !== null && CRASH_SIGNALS.has(status.signal)) {
    return `killed by ${status.signal}`;
  }
  const line = stderr.split("\n").find((l) => NATIVE_CRASH_TEXT.test(l));
  return line === undefined ? undefined : `exit code ${status.code}: ${line.trim()}`;
}

/**
 * Writes one crash report to stderr when `status` and `stderr` are a crash;
 * returns whether it did.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportChildCrash } from "./child_crash.ts";
 *
 * const status = { success: true, code: 0, signal: null } as const;
 * assert.equal(reportChildCrash("a child", ["deno", "run", "x.ts"], status, ""), false);
 * ```
 */
export function reportChildCrash(
  name: string,
  command: readonly string[],
  status: Deno.CommandStatus,
  stderr: string,
): boolean {
  const why = crashOf(status, stderr);
  if (why === undefined) return false;
  const tail = stderr.trimEnd().split("\n").slice(-30).map((l) => `  | ${l}`).join("\n");
  // deno-lint-ignore no-console -- the point is to be seen in CI's log
  console.error(
    `${CRASH_REPORT_MARK}: ${name} (${why})\n` +
      `  command: ${command.join(" ")}\n` +
      `  exit: code ${status.code}, signal ${status.signal ?? "none"}\n` +
      `  last lines of its stderr:\n${tail || "  | (nothing)"}`,
  );
  return true;
}
