/**
 * Runs a child with a shifted or skewed clock through Debian's libfaketime,
 * preloaded directly (`LD_PRELOAD` + `FAKETIME`) rather than through the
 * `faketime` command, which forks: the harness must signal the Deno process
 * itself (SIGKILL, SIGSTOP), not a wrapper that would leave it running.
 *
 * What it does to Deno (measured with Deno 2.9.3, see docs/ownership.md,
 * "Clocks"): an offset (`+30s`) shifts `Date.now()` only; `performance.now()`
 * and timers are unaffected. A rate (`+0 x1.01`) makes `Date.now()`,
 * `performance.now()` and every timer run that much fast. A process started
 * with {@linkcode steppableClockEnv} reads its offset from a file, so its
 * wall clock can be stepped while it runs ({@linkcode stepClock}), as NTP
 * steps a host's clock; its monotonic clock and timers are left alone.
 *
 * @module
 */

const LIBRARIES = [
  "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
  "/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1",
  "/usr/lib/faketime/libfaketimeMT.so.1",
  "/usr/local/lib/faketime/libfaketimeMT.so.1",
];

/**
 * libfaketime's multi-threaded library, or `undefined` when it is not installed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { faketimeLibrary } from "./faketime.ts";
 *
 * const library = faketimeLibrary();
 * assert.ok(library === undefined || library.endsWith("libfaketimeMT.so.1"));
 * ```
 */
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

/**
 * The environment of a process whose wall clock {@linkcode stepClock} can
 * step while it runs: libfaketime reads the offset from `file` (re-read every
 * second) and leaves the monotonic clock alone. Writes `+0` to `file`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { faketimeLibrary, steppableClockEnv, stepClock } from "./faketime.ts";
 *
 * if (faketimeLibrary()) {
 *   const file = await Deno.makeTempFile();
 *   assert.equal(steppableClockEnv(file).FAKETIME_TIMESTAMP_FILE, file);
 *   stepClock(file, "-30s"); // a child started with that env is 30 s behind within a second
 *   assert.equal(Deno.readTextFileSync(file), "-30s\n");
 *   await Deno.remove(file);
 * }
 * ```
 */
export function steppableClockEnv(file: string): Record<string, string> {
  const { LD_PRELOAD } = faketimeEnv("+0");
  Deno.writeTextFileSync(file, "+0\n");
  return {
    LD_PRELOAD: LD_PRELOAD!,
    FAKETIME_TIMESTAMP_FILE: file,
    FAKETIME_CACHE_DURATION: "1",
    FAKETIME_DONT_FAKE_MONOTONIC: "1",
  };
}

/**
 * Steps the wall clock of the processes started with `steppableClockEnv(file)`
 * to `offset` (e.g. `"+30s"`, `"+0"`); a `RangeError` for a bad offset.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stepClock } from "./faketime.ts";
 *
 * assert.throws(() => stepClock("/nonexistent", "yesterday"), RangeError);
 * ```
 */
export function stepClock(file: string, offset: string): void {
  faketimeEnv(offset); // validates it
  Deno.writeTextFileSync(file, `${offset}\n`);
}
