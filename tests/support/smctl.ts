/**
 * Running smctl as a subprocess in integration tests, exactly as an operator
 * would: `deno run` on `src/smctl/main.ts` with the permissions of
 * `deno task smctl`, either to completion ({@linkcode smctl}), in the
 * background ({@linkcode spawnSmctl}), or in a pseudo-terminal made by
 * util-linux `script` ({@linkcode spawnSmctlInTerminal}).
 *
 * @module
 */

const MAIN = new URL("../../src/smctl/main.ts", import.meta.url).pathname;
const ROOT = new URL("../..", import.meta.url).pathname;

/**
 * The `deno run` permissions smctl needs: net for gRPC, env for its
 * variables, read for TLS files and its config, write for
 * `config use-context`. (The wire contract is embedded, so no `.proto` file
 * is read.)
 */
export const SMCTL_PERMISSIONS: readonly string[] = [
  "--allow-net",
  "--allow-env",
  "--allow-read",
  "--allow-write",
];

/** The command line that runs smctl with `args`. */
export function smctlCommand(args: readonly string[]): string[] {
  return [Deno.execPath(), "run", "--quiet", ...SMCTL_PERMISSIONS, MAIN, ...args];
}

/** What a finished smctl run left. */
export interface SmctlResult {
  /** Exit code. */
  readonly code: number;
  /** Everything on stdout. */
  readonly stdout: string;
  /** Everything on stderr. */
  readonly stderr: string;
}

/** Options of {@linkcode smctl} and {@linkcode spawnSmctl}. */
export interface SmctlOptions {
  /** Extra environment; `SMCTL_*` and `NO_COLOR` of the test's own environment are removed. */
  readonly env?: Record<string, string>;
  /** Text for stdin (stdin is closed after it; without it, stdin is /dev/null). */
  readonly stdin?: string;
  /** Kill the run after this long. @default {60000} */
  readonly timeoutMs?: number;
}

function environment(extra: Record<string, string> = {}): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([k]) =>
      !k.startsWith("SMCTL_") && k !== "NO_COLOR"
    ),
  );
  return { ...env, ...extra };
}

/** Runs smctl to completion. */
export async function smctl(
  args: readonly string[],
  options: SmctlOptions = {},
): Promise<SmctlResult> {
  const child = spawnSmctl(args, options);
  return await child.finished;
}

/** A running smctl. */
export interface SmctlProcess {
  /** Stdout so far. */
  stdout(): string;
  /** Stderr so far. */
  stderr(): string;
  /** Resolves once stdout (or stderr) satisfies `check`; rejects after `timeoutMs` with both. */
  waitFor(
    check: (out: { stdout: string; stderr: string }) => boolean,
    timeoutMs: number,
    what: string,
  ): Promise<void>;
  /** Sends a signal. */
  kill(signal: Deno.Signal): void;
  /** The run's result once it exits. */
  readonly finished: Promise<SmctlResult>;
}

/** Starts smctl in the background with piped output. */
export function spawnSmctl(args: readonly string[], options: SmctlOptions = {}): SmctlProcess {
  const [command, ...rest] = smctlCommand(args);
  return spawn(command!, rest, options);
}

/**
 * Starts smctl in a pseudo-terminal (`script`), sized `columns` x `rows`, so
 * it sees a terminal on stdin, stdout and stderr. Whatever is written with
 * `type` arrives as keystrokes (`"\x03"` is Ctrl-C). Output is the
 * terminal's, with `\r\n` line ends; the exit code is smctl's.
 */
export function spawnSmctlInTerminal(
  args: readonly string[],
  options: SmctlOptions & { columns?: number; rows?: number } = {},
): SmctlProcess & { type(text: string): Promise<void> } {
  const quoted = smctlCommand(args).map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  const size = `stty cols ${options.columns ?? 120} rows ${options.rows ?? 40}`;
  return spawn("script", ["-qefc", `${size}; exec ${quoted}`, "/dev/null"], {
    ...(options.env ? { env: options.env } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    interactive: true,
  });
}

function spawn(
  command: string,
  args: string[],
  options: SmctlOptions & { interactive?: boolean },
): SmctlProcess & { type(text: string): Promise<void> } {
  const piped = options.stdin !== undefined || options.interactive === true;
  const child = new Deno.Command(command, {
    args,
    cwd: ROOT,
    env: environment(options.env),
    clearEnv: true,
    stdin: piped ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stdout = "";
  let stderr = "";
  let changed = Promise.withResolvers<void>();
  const collect = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      add(text);
      changed.resolve();
      changed = Promise.withResolvers();
    }
  };
  const reading = Promise.all([
    collect(child.stdout, (t) => stdout += t),
    collect(child.stderr, (t) => stderr += t),
  ]);
  const writer = piped ? child.stdin.getWriter() : undefined;
  if (options.stdin !== undefined && writer) {
    writer.write(new TextEncoder().encode(options.stdin)).then(() => writer.close()).catch(
      () => {},
    );
  }
  const killTimer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* exited */ }
  }, options.timeoutMs ?? 60_000);
  const finished = (async () => {
    const status = await child.status;
    await reading;
    clearTimeout(killTimer);
    if (options.interactive) await writer?.close().catch(() => {});
    return { code: status.code, stdout, stderr };
  })();
  let exited = false;
  finished.then(() => exited = true, () => exited = true);
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    async waitFor(check, timeoutMs, what) {
      const deadline = performance.now() + timeoutMs;
      while (!check({ stdout, stderr })) {
        const left = deadline - performance.now();
        if (left <= 0 || exited) {
          if (check({ stdout, stderr })) return;
          throw new Error(
            `${exited ? "smctl exited" : `Timed out after ${timeoutMs} ms`} waiting for ${what}\n` +
              `--- stdout:\n${stdout}\n--- stderr:\n${stderr}`,
          );
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          changed.promise,
          finished,
          new Promise((r) => timer = setTimeout(r, Math.min(left, 250))),
        ]);
        clearTimeout(timer);
      }
    },
    kill(signal) {
      try {
        child.kill(signal);
      } catch { /* exited */ }
    },
    async type(text) {
      await writer?.write(new TextEncoder().encode(text));
    },
    finished,
  };
}

/** Parses stdout as one JSON document, with the run in the message when it is not. */
export function json<T = Record<string, unknown>>(result: SmctlResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(
      `stdout is not one JSON document (exit ${result.code}):\n${result.stdout}\n--- stderr:\n${result.stderr}`,
    );
  }
}

/** Splits table output into rows of cells (split on runs of 2+ spaces). */
export function tableRows(text: string): string[][] {
  return text.trimEnd().split("\n").map((line) => line.trim().split(/\s{2,}/));
}
