// deno-lint-ignore-file no-console -- a command-line tool that reports what it ran
/**
 * Checks a Deno release before the pin (`.dvmrc`) moves to it: runs the
 * runtime regression test (`tests/runtime_disconnect_test.ts`) with every
 * service instance and executor process on that release.
 *
 * ```sh
 * deno task runtime:check --deno ~/deno-2.10.0/deno      # 20 trials per scenario
 * deno task runtime:check --deno ~/deno-2.10.0/deno --trials 40 --only "watch clients"
 * ```
 *
 * Install a release beside the pinned one with
 * `npm install --prefix ~/deno-X deno@X` (binary: `~/deno-X/node_modules/deno/deno`).
 * Exits 0 when no scenario aborted a process, 1 otherwise.
 *
 * @module
 */
import { parseArgs } from "node:util";

const USAGE = `Usage: deno task runtime:check [--deno PATH] [--trials N] [--only TEXT]

  --deno PATH    the Deno binary to check (default: the one running this)
  --trials N     trials per scenario (default 20)
  --only TEXT    only the scenarios whose name contains TEXT`;

const TEST = new URL("../tests/runtime_disconnect_test.ts", import.meta.url).pathname;

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: Deno.args,
      options: {
        deno: { type: "string" },
        trials: { type: "string" },
        only: { type: "string" },
        help: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const deno = args.deno ?? Deno.execPath();
  const trials = args.trials ?? "20";
  if (!/^[1-9][0-9]*$/.test(trials)) {
    console.error(`--trials must be a positive integer, got ${JSON.stringify(trials)}`);
    return 2;
  }
  let version;
  try {
    const out = await new Deno.Command(deno, { args: ["--version"], stdout: "piped" }).output();
    version = new TextDecoder().decode(out.stdout).split("\n")[0];
  } catch (error) {
    console.error(`Cannot run ${deno}: ${(error as Error).message}`);
    return 2;
  }
  console.log(`checking ${version} (${deno}), ${trials} trials per scenario`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--allow-all", TEST],
    env: { SM_DENO: deno, RUNTIME_TRIALS: trials, RUNTIME_ONLY: args.only ?? "" },
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  console.log(
    code === 0
      ? `${version}: no process aborted; it may be pinned (update .dvmrc, VERIFIED_DENO in ` +
        `src/core/runtime_check.ts, the Dockerfile and docs/reliability.md)`
      : `${version}: a process aborted or a scenario failed; keep the pin`,
  );
  return code === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
