/**
 * Runs a node of an example (a Deno script) as a child process, so that it
 * can be killed for real, and hands each line it prints to a callback.
 *
 * @module
 */

/** A running child. */
export interface Child extends AsyncDisposable {
  /** The node's name. */
  readonly name: string;
  /** Its process id. */
  readonly pid: number;
  /** Resolves with the exit status once it has exited and its output is read. */
  readonly exited: Promise<Deno.CommandStatus>;
  /** Sends `signal` (a graceful SIGTERM by default) and waits for the exit. */
  kill(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
  /** Sends SIGTERM, then SIGKILL if it has not exited after `graceMs` (default 8000). */
  stop(graceMs?: number): Promise<Deno.CommandStatus>;
}

/** Options of {@linkcode spawnChild}. */
export interface SpawnOptions {
  /** The node's name, passed to `onLine`. */
  readonly name: string;
  /** Called with every line the child prints on stdout or stderr. */
  readonly onLine?: (line: string, stream: "stdout" | "stderr") => void;
}

const REPO = new URL("../../", import.meta.url);

/**
 * Starts `deno run -A <script> ...args` from the repository's root (so the
 * import map in `deno.json` applies).
 *
 * @example
 * ```ts ignore
 * await using node = spawnChild(new URL("./node.ts", import.meta.url), ["--name", "a"], {
 *   name: "a",
 *   onLine: (line) => console.log(line),
 * });
 * await node.kill("SIGKILL");
 * ```
 */
export function spawnChild(script: URL, args: readonly string[], options: SpawnOptions): Child {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script.pathname, ...args],
    cwd: REPO.pathname,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const onLine = options.onLine ?? (() => {});
  const read = async (stream: ReadableStream<Uint8Array>, kind: "stdout" | "stderr") => {
    let buffer = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) onLine(line, kind);
    }
    if (buffer) onLine(buffer, kind);
  };
  const reading = Promise.all([read(child.stdout, "stdout"), read(child.stderr, "stderr")]);
  const exited = child.status.then(async (status) => {
    await reading;
    return status;
  });
  const kill = (signal: Deno.Signal = "SIGTERM") => {
    try {
      child.kill(signal);
    } catch { /* already exited */ }
    return exited;
  };
  const stop = async (graceMs = 8_000) => {
    const timer = setTimeout(() => void kill("SIGKILL"), graceMs);
    const status = await kill("SIGTERM");
    clearTimeout(timer);
    return status;
  };
  return {
    name: options.name,
    pid: child.pid,
    exited,
    kill,
    stop,
    [Symbol.asyncDispose]: async () => {
      await kill("SIGKILL");
    },
  };
}
