/**
 * Runs a child with a shifted or skewed clock through Debian's libfaketime,
 * preloaded directly (`LD_PRELOAD` + `FAKETIME`) rather than through the
 * `faketime` command, which forks: the harness must signal the Deno process
 * itself (SIGKILL, SIGSTOP), not a wrapper that would leave it running.
 *
 * What it does to Deno (measured with Deno 2.9.3, see docs/ownership.md,
 * "Clocks"): an offset (`+30s`) shifts `Date.now()` only; `performance.now()`
 * and timers are unaffected. A rate (`+0 x1.01`) makes `Date.now()`,
 * `performance.now()` and every timer run that much fast.
 *
 * @module
 */

const LIBRARIES = [
  "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
  "/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1",
  "/usr/lib/faketime/libfaketimeMT.so.1",
  "/usr/local/lib/faketime/libfaketimeMT.so.1",
];

/** libfaketime's multi-threaded library, or `undefined` when it is not installed. */
export function faketimeLibrary(): string | undefined {
  return LIBRARIES.find((path) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  });
}

/**
 * The environment that runs a child under `spec` (libfaketime's syntax:
 * `"+30s"`, `"-30s"`, `"+0 x1.01"`); throws an `Error` saying what to
 * install when libfaketime is missing, and a `RangeError` for a spec this
 * harness does not use.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { faketimeEnv, faketimeLibrary } from "./faketime.ts";
 *
 * if (faketimeLibrary()) assert.equal(faketimeEnv("-30s").FAKETIME, "-30s");
 * assert.throws(() => faketimeEnv("2020-01-01"), RangeError);
 * ```
 */
export function faketimeEnv(spec: string): Record<string, string> {
  if (!/^[+-]\d+(\.\d+)?[smhd]?( x\d+(\.\d+)?)?$/.test(spec)) {
    throw new RangeError(
      `faketime spec must be an offset with an optional rate, e.g. "+30s" or "+0 x1.01", got ${
        JSON.stringify(spec)
      }`,
    );
  }
  const library = faketimeLibrary();
  if (!library) {
    throw new Error(
      "libfaketime is not installed (Debian: apt-get install faketime); clock faults need it",
    );
  }
  return { LD_PRELOAD: library, FAKETIME: spec };
}
