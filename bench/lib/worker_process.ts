/**
 * The driver's side of a benchmark worker: a Deno child process that takes
 * JSON commands on stdin and answers with JSON lines on stdout (see
 * `bench/workers/_protocol.ts` for the other side).
 *
 * @module
 */
import { readLines, Tail } from "./lines.ts";
import { reportChildCrash } from "../../tests/support/child_crash.ts";
import { signalChild, spawnDeno, stopChild } from "./spawn.ts";

/** A message from a worker: `type` says which. */
export interface WorkerMessage {
  /** What the message is. */
  readonly type: string;
  /** Anything else. */
  readonly [field: string]: unknown;
}

interface Waiter {
  readonly type: string;
  readonly resolve: (message: WorkerMessage) => void;
}

/** A running worker process. */
export class WorkerProcess implements AsyncDisposable {
  /** A name for messages. */
  readonly name: string;
  /** The process id. */
  readonly pid: number;
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #queue: WorkerMessage[] = [];
  #waiters: Waiter[] = [];
  readonly #stderr = new Tail();
  readonly #exited: Promise<void>;
  #alive = true;

  /**
   * Starts `bench/workers/<script>` with `options` as its one JSON argument.
   *
   * @example
   * ```ts ignore
   * import { WorkerProcess } from "./worker_process.ts";
   *
   * await using echo = WorkerProcess.start("echo_server.ts", {}, "echo");
   * const { address } = await echo.next("ready");
   * ```
   */
  static start(
    script: string,
    options: unknown,
    name = script,
    denoFlags: readonly string[] = [],
  ): WorkerProcess {
    const url = new URL(`../workers/${script}`, import.meta.url);
    return new WorkerProcess(name, spawnDeno(url, [JSON.stringify(options)], { denoFlags }));
  }

  private constructor(name: string, child: Deno.ChildProcess) {
    this.name = name;
    this.#child = child;
    this.pid = child.pid;
    this.#writer = child.stdin.getWriter();
    const out = readLines(child.stdout, (line) => this.#receive(line));
    const err = readLines(child.stderr, (line) => this.#stderr.push(line));
    this.#exited = Promise.all([out, err, child.status]).then(([, , status]) => {
      this.#alive = false;
      reportChildCrash(`benchmark worker ${name}`, [name], status, `${this.#stderr}`);
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const w of waiters) w.resolve({ type: "exit" });
    });
  }

  /** Whether the process still runs. */
  get alive(): boolean {
    return this.#alive;
  }

  /** Sends one command. */
  async send(command: WorkerMessage): Promise<void> {
    try {
      await this.#writer.write(new TextEncoder().encode(`${JSON.stringify(command)}\n`));
    } catch (error) {
      throw new Error(`${this.name} is gone (${error}):\n${this.#stderr}`);
    }
  }

  /**
   * The next message of `type` (earlier ones of that type first). Rejects
   * after `timeoutMs`, or when the worker exits or reports `{type:"error"}`.
   */
  async next(type: string, timeoutMs = 60_000): Promise<WorkerMessage> {
    const index = this.#queue.findIndex((m) => m.type === type || m.type === "error");
    let message: WorkerMessage;
    if (index >= 0) {
      message = this.#queue.splice(index, 1)[0]!;
    } else {
      if (!this.#alive) throw new Error(`${this.name} exited:\n${this.#stderr}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      message = await new Promise<WorkerMessage>((resolve, reject) => {
        const waiter = { type, resolve };
        this.#waiters.push(waiter);
        timer = setTimeout(() => {
          this.#waiters = this.#waiters.filter((w) => w !== waiter);
          reject(new Error(`${this.name}: no "${type}" within ${timeoutMs} ms\n${this.#stderr}`));
        }, timeoutMs);
      }).finally(() => clearTimeout(timer));
    }
    if (message.type === "error") throw new Error(`${this.name}: ${message.message}`);
    if (message.type === "exit") throw new Error(`${this.name} exited:\n${this.#stderr}`);
    return message;
  }

  /** Sends `command` and waits for the answer of type `answer`. */
  async request(
    command: WorkerMessage,
    answer: string,
    timeoutMs = 60_000,
  ): Promise<WorkerMessage> {
    await this.send(command);
    return await this.next(answer, timeoutMs);
  }

  /** Sends a signal without waiting. */
  signal(signal: Deno.Signal): void {
    signalChild(this.#child, signal);
  }

  /** Sends `signal` (SIGTERM by default) and waits for the exit, SIGKILL after 3 s. */
  async stop(signal: Deno.Signal = "SIGTERM"): Promise<void> {
    if (this.#alive) {
      await this.#writer.close().catch(() => {});
      this.signal(signal);
      await stopChild(this.#child, 3_000);
    }
    await this.#exited;
  }

  /** The last lines the worker wrote to stderr. */
  stderrTail(): string {
    return String(this.#stderr);
  }

  /** Same as {@linkcode WorkerProcess.stop}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }

  #receive(line: string): void {
    let message: WorkerMessage;
    try {
      message = JSON.parse(line);
    } catch {
      this.#stderr.push(`(stdout) ${line}`);
      return;
    }
    const index = this.#waiters.findIndex((w) =>
      w.type === message.type || message.type === "error"
    );
    if (index >= 0) this.#waiters.splice(index, 1)[0]!.resolve(message);
    else this.#queue.push(message);
  }
}
