/**
 * The worker's side of the driver protocol: one JSON argument, JSON commands
 * on stdin, JSON messages on stdout.
 *
 * @module
 */
import { readLines } from "../lib/lines.ts";

/** A command or message: `type` says which. */
export interface Message {
  /** What it is. */
  readonly type: string;
  /** Anything else. */
  readonly [field: string]: unknown;
}

/** The worker's options: its first command-line argument, parsed as JSON. */
export function workerOptions<T>(): T {
  return JSON.parse(Deno.args[0] ?? "{}") as T;
}

const encoder = new TextEncoder();

/** Writes one message to the driver. */
export function emit(message: Message): void {
  Deno.stdout.writeSync(encoder.encode(`${JSON.stringify(message)}\n`));
}

/**
 * Calls `handle` for every command from the driver, one at a time; exits the
 * process when stdin closes (the driver is gone) or on SIGTERM.
 */
export function serveCommands(handle: (command: Message) => Promise<void> | void): void {
  let chain = Promise.resolve();
  readLines(Deno.stdin.readable, (line) => {
    if (line.trim() === "") return;
    chain = chain.then(() => handle(JSON.parse(line) as Message)).catch((error) => {
      emit({
        type: "error",
        message: error instanceof Error ? error.stack ?? error.message : error,
      });
    });
  }).then(() => chain).then(() => Deno.exit(0));
  Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}
