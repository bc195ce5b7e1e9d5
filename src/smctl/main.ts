/**
 * `smctl`, the operator's command line for Shard Manager.
 *
 * ```sh
 * deno task smctl --help
 * deno task smctl -n orders executor drain worker-7 --wait
 * ```
 *
 * This file runs the program and maps every failure to one line on stderr
 * and an exit code (see `exit_codes.ts`). Set `SMCTL_DEBUG=1` to see the
 * stack of an unexpected error.
 *
 * @module
 */
import { CommanderError } from "commander";
import { describeFailure } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { buildProgram } from "./program.ts";

/**
 * Runs smctl with `args` (without the program name) and returns the exit code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExitCode } from "./exit_codes.ts";
 * import { main } from "./main.ts";
 *
 * assert.equal(await main(["--version"]), ExitCode.OK); // prints the version
 * // In a program: Deno.exit(await main(Deno.args));
 * ```
 */
export async function main(args: readonly string[]): Promise<ExitCode> {
  try {
    await buildProgram().parseAsync([...args], { from: "user" });
    return ExitCode.OK;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error);
    if (error instanceof Deno.errors.BrokenPipe) return ExitCode.OK; // e.g. `smctl ... | head`
    const { message, exitCode } = describeFailure(error, Boolean(Deno.env.get("SMCTL_DEBUG")));
    try {
      Deno.stderr.writeSync(new TextEncoder().encode(`smctl: ${message}\n`));
    } catch { /* stderr is gone; the exit code still tells */ }
    return exitCode;
  }
}

/** Commander already printed its message or the help; only the code is left. */
function commanderExit(error: CommanderError): ExitCode {
  const helpAsked = error.code === "commander.helpDisplayed" ||
    error.code === "commander.version" ||
    (error.code === "commander.help" && error.exitCode === 0);
  return helpAsked ? ExitCode.OK : ExitCode.USAGE;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
