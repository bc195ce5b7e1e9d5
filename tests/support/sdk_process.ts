/**
 * Runs `sdk_child.ts` as a child process and collects the events it prints,
 * so tests can SIGKILL an SDK process for real.
 *
 * @module
 */
import type { ChildOptions } from "./sdk_child.ts";
import { reportChildCrash } from "./child_crash.ts";
import { denoBinary } from "./deno_bin.ts";

/** One line the child printed. */
export interface ChildEvent {
  readonly event: string;
  readonly at: number;
  readonly shard?: string;
  readonly token?: string;
  readonly id?: string;
}

/** A running child. */
export interface SdkProcess extends AsyncDisposable {
  /** Everything it printed so far. */
  readonly events: ChildEvent[];
  /** Its stderr so far. */
  stderr(): string;
  /** Its exit status once it has exited; undefined while it runs. */
  exited(): Deno.CommandStatus | undefined;
  /** Sends `signal` (default SIGKILL) and waits for the exit. */
  kill(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

const CHILD = new URL("./sdk_child.ts", import.meta.url).pathname;

/** Starts an executor (`"executor"`) or leader selector (`"leader"`) child and waits until it runs. */
export async function startSdkProcess(
  mode: "executor" | "leader",
  options: ChildOptions,
): Promise<SdkProcess> {
  const args = ["run", "-A", CHILD, mode, JSON.stringify(options)];
  const child = new Deno.Command(denoBinary(), {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const events: ChildEvent[] = [];
  let stderr = "";
  let exitStatus: Deno.CommandStatus | undefined;
  child.status.then((s) => exitStatus = s, () => {});
  const ready = Promise.withResolvers<void>();
  const readOut = (async () => {
    let buffer = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        const event = JSON.parse(line) as ChildEvent;
        events.push(event);
        if (event.event === "ready") ready.resolve();
      }
    }
    ready.reject(new Error(`SDK child exited before it was ready:\n${stderr}`));
  })();
  const readErr = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })();
  Promise.all([child.status, readErr]).then(
    ([status]) => reportChildCrash(`SDK ${mode}`, [denoBinary(), ...args], status, stderr),
    () => {},
  );
  let exited: Promise<Deno.CommandStatus> | undefined;
  const kill = (signal: Deno.Signal = "SIGKILL") => {
    try {
      child.kill(signal);
    } catch { /* already exited */ }
    return exited ??= child.status.then(async (status) => {
      await Promise.all([readOut, readErr]);
      return status;
    });
  };
  const timer = setTimeout(() => ready.reject(new Error("SDK child did not start")), 30_000);
  try {
    await ready.promise;
  } catch (error) {
    await kill();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    events,
    stderr: () => stderr,
    exited: () => exitStatus,
    kill,
    [Symbol.asyncDispose]: async () => {
      await kill();
    },
  };
}
