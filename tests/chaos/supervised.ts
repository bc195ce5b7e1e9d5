/**
 * A child process the chaos harness starts, signals and watches. Every exit
 * is reported with whether the harness asked for it, so an unexpected death
 * (a crash) is never mistaken for an injected fault.
 *
 * @module
 */

/** How a process ended. */
export interface ExitInfo {
  readonly name: string;
  readonly generation: number;
  readonly at: number;
  /** Whether the harness had signalled it to stop. */
  readonly expected: boolean;
  readonly code: number;
  readonly signal: string | null;
  /** The last lines of its stderr. */
  readonly stderrTail: string;
}

/** How to run and watch one process. */
export interface SupervisedOptions {
  readonly name: string;
  /** The command line of generation `generation` (0 for the first start). */
  readonly command: (generation: number) => readonly string[];
  /** Called with each stdout line. @default {undefined} stdout is discarded */
  readonly onLine?: (line: string) => void;
  /** Called once per exit. */
  readonly onExit: (info: ExitInfo) => void;
  /** Resolves once the process serves. */
  readonly ready: (process: Supervised) => Promise<void>;
  /** Added to the environment of every generation. @default {undefined} the harness's own */
  readonly env?: Readonly<Record<string, string>>;
}

const TAIL_CHARS = 4_000;
const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
});

/** One supervised process (restartable). */
export class Supervised {
  readonly name: string;
  readonly #options: SupervisedOptions;
  #child: Deno.ChildProcess | undefined;
  #exited: Promise<ExitInfo> | undefined;
  #expected = false;
  #paused = false;
  #generation = -1;
  #stderr = "";
  #lines: ((line: string) => void)[] = [];

  constructor(options: SupervisedOptions) {
    this.name = options.name;
    this.#options = options;
  }

  /** Starts counting from 0 at the first start. */
  get generation(): number {
    return this.#generation;
  }

  /** Whether the process runs (a paused one counts). */
  get running(): boolean {
    return this.#child !== undefined;
  }

  /** The running process's id (`setpriv` execs the command: the same process). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Whether it is paused with SIGSTOP. */
  get paused(): boolean {
    return this.#paused;
  }

  /** Resolves with the next stdout line that satisfies `match`. */
  waitLine(match: (line: string) => boolean, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#lines = this.#lines.filter((l) => l !== listener);
        reject(new Error(`${this.name}: no ready line within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (line: string) => {
        if (!match(line)) return;
        clearTimeout(timer);
        this.#lines = this.#lines.filter((l) => l !== listener);
        resolve();
      };
      this.#lines.push(listener);
    });
  }

  /**
   * Starts the next generation and waits until it is ready; `env` adds to
   * the environment of this generation only, instead of the options' `env`
   * (e.g. libfaketime's, for a clock fault; a restart after a crash runs
   * without it).
   */
  async start(options: { readonly env?: Readonly<Record<string, string>> } = {}): Promise<void> {
    if (this.#child) throw new Error(`Cannot start ${this.name}: it is running`);
    this.#generation++;
    this.#expected = false;
    this.#paused = false;
    this.#stderr = "";
    const [cmd, ...args] = this.#options.command(this.#generation);
    const wrapped = SETPRIV
      ? [SETPRIV, "--pdeathsig", "KILL", "--", cmd!, ...args]
      : [cmd!, ...args];
    const child = new Deno.Command(wrapped[0]!, {
      args: wrapped.slice(1),
      ...((options.env ?? this.#options.env)
        ? { env: { ...(options.env ?? this.#options.env) } }
        : {}),
      stdin: "null",
      stdout: this.#options.onLine ? "piped" : "null",
      stderr: "piped",
    }).spawn();
    this.#child = child;
    const generation = this.#generation;
    const reading = Promise.all([this.#readStdout(child), this.#readStderr(child)]);
    this.#exited = child.status.then(async (status) => {
      await reading;
      const info: ExitInfo = {
        name: this.name,
        generation,
        at: Date.now(),
        expected: this.#expected,
        code: status.code,
        signal: status.signal,
        stderrTail: this.#stderr.slice(-TAIL_CHARS),
      };
      this.#child = undefined;
      this.#paused = false;
      this.#options.onExit(info);
      return info;
    });
    const ready = this.#options.ready(this);
    const died = this.#exited.then((info) => {
      throw new Error(
        `${this.name} exited during startup (code ${info.code}):\n${info.stderrTail}`,
      );
    });
    await Promise.race([ready, died]);
  }

  /** Sends `signal` as an injected fault or a planned stop and waits for the exit. */
  async kill(signal: Deno.Signal = "SIGKILL", graceMs = 10_000): Promise<ExitInfo | undefined> {
    const child = this.#child;
    const exited = this.#exited;
    if (!child || !exited) return undefined;
    this.#expected = true;
    if (this.#paused && signal !== "SIGKILL") this.signal("SIGCONT");
    this.signal(signal);
    const timer = setTimeout(() => this.signal("SIGKILL"), graceMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends a signal without waiting (SIGSTOP/SIGCONT pause and resume). */
  signal(signal: Deno.Signal): void {
    try {
      this.#child?.kill(signal);
      if (signal === "SIGSTOP") this.#paused = true;
      if (signal === "SIGCONT") this.#paused = false;
    } catch { /* already gone */ }
  }

  async #readStdout(child: Deno.ChildProcess): Promise<void> {
    if (!this.#options.onLine) return;
    let buffer = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (line.trim() === "") continue;
        this.#options.onLine(line);
        for (const listener of [...this.#lines]) listener(line);
      }
    }
  }

  async #readStderr(child: Deno.ChildProcess): Promise<void> {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      this.#stderr = (this.#stderr + chunk).slice(-2 * TAIL_CHARS);
    }
  }
}

/** Resolves once `<hostname>:<port>` accepts a TCP connection. */
export async function waitForPort(
  port: number,
  timeoutMs: number,
  hostname = "127.0.0.1",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const conn = await Deno.connect({ hostname, port });
      conn.close();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`Port ${port} not open within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
