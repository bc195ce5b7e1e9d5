/**
 * Spawning Deno child processes that cannot outlive the benchmark: each runs
 * under `setpriv --pdeathsig KILL` when util-linux is present, so a crash or
 * a kill of the driver takes them down too.
 *
 * @module
 */

let setpriv: string | null | undefined;

function findSetpriv(): string | null {
  if (setpriv !== undefined) return setpriv;
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (dir !== "" && Deno.statSync(`${dir}/setpriv`).isFile) return setpriv = `${dir}/setpriv`;
    } catch { /* not here */ }
  }
  return setpriv = null;
}

/** Options of {@linkcode spawnDeno}. */
export interface SpawnDenoOptions {
  /** Flags for `deno run` before the script, e.g. `["--cpu-prof"]`. @default {[]} */
  readonly denoFlags?: readonly string[];
  /** Standard input. @default {"piped"} */
  readonly stdin?: "piped" | "null";
  /** Standard output. @default {"piped"} */
  readonly stdout?: "piped" | "null";
}

/**
 * Starts `deno run -A <flags> <script> <args>` with piped stdio, tied to this
 * process's lifetime.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spawnDeno } from "./spawn.ts";
 *
 * const script = await Deno.makeTempFile({ suffix: ".ts" });
 * await Deno.writeTextFile(script, "console.log(Deno.args.join(' '));");
 * const child = spawnDeno(new URL(`file://${script}`), ["hello", "child"], { stdin: "null" });
 * const { code, stdout } = await child.output();
 * assert.equal(code, 0);
 * assert.equal(new TextDecoder().decode(stdout), "hello child\n");
 * await Deno.remove(script);
 * ```
 */
export function spawnDeno(
  script: URL,
  args: readonly string[],
  options: SpawnDenoOptions = {},
): Deno.ChildProcess {
  const deno = [Deno.execPath(), "run", "-A", ...(options.denoFlags ?? []), script.pathname];
  const wrapper = findSetpriv();
  const command = wrapper === null ? deno : [wrapper, "--pdeathsig", "KILL", "--", ...deno];
  return new Deno.Command(command[0]!, {
    args: [...command.slice(1), ...args],
    stdin: options.stdin ?? "piped",
    stdout: options.stdout ?? "piped",
    stderr: "piped",
  }).spawn();
}

/** Sends `signal` to `child`, ignoring a child that already exited. */
export function signalChild(child: Deno.ChildProcess, signal: Deno.Signal): void {
  try {
    child.kill(signal);
  } catch { /* already exited */ }
}

/**
 * Waits for `child` to exit; after `graceMs` it sends SIGKILL and waits again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signalChild, stopChild } from "./spawn.ts";
 *
 * const child = new Deno.Command("sleep", { args: ["60"], stdout: "null", stderr: "null" }).spawn();
 * signalChild(child, "SIGTERM");
 * await stopChild(child, 2_000);
 * assert.equal((await child.status).signal, "SIGTERM");
 * signalChild(child, "SIGTERM"); // an exited child is ignored
 * ```
 */
export async function stopChild(child: Deno.ChildProcess, graceMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), graceMs));
  try {
    if (await Promise.race([child.status, late]) === "late") {
      signalChild(child, "SIGKILL");
      await child.status;
    }
  } finally {
    clearTimeout(timer);
  }
}
