/**
 * Cleanup that survives failures and Ctrl-C: a {@linkcode Scope} collects
 * what a suite started (child processes, etcd, clients) and undoes it in
 * reverse order; every open scope is also closed when the process gets
 * SIGINT or SIGTERM ({@linkcode installSignalCleanup}).
 *
 * @module
 */

type Task = () => unknown;

const open = new Set<Scope>();
let stopping = false;

/** Whether SIGINT or SIGTERM arrived (results of an interrupted run are not kept). */
export function interrupted(): boolean {
  return stopping;
}

/**
 * A stack of cleanup tasks, run in reverse order by {@linkcode Scope.close}.
 *
 * @example
 * ```ts
 * import { Scope } from "./scope.ts";
 *
 * const order: string[] = [];
 * await using scope = new Scope();
 * scope.defer(() => order.push("first started, last stopped"));
 * scope.defer(() => order.push("second"));
 * ```
 */
export class Scope implements AsyncDisposable {
  #tasks: Task[] = [];
  #closing: Promise<void> | undefined;

  /** An empty scope, closed on SIGINT/SIGTERM until it is closed. */
  constructor() {
    open.add(this);
  }

  /** Runs `task` when the scope closes; returns a function that runs it early (once). */
  defer(task: Task): () => Promise<void> {
    let done = false;
    const once = async () => {
      if (done) return;
      done = true;
      await task();
    };
    this.#tasks.push(once);
    open.add(this);
    return once;
  }

  /** Keeps `resource` and disposes it when the scope closes; returns it. */
  adopt<T extends AsyncDisposable>(resource: T): T {
    this.defer(() => resource[Symbol.asyncDispose]());
    return resource;
  }

  /**
   * Runs every task in reverse order; errors are reported, not thrown. The
   * scope can be used again afterwards (a suite may close it between phases).
   */
  close(): Promise<void> {
    return this.#closing ??= (async () => {
      while (this.#tasks.length > 0) {
        const task = this.#tasks.pop()!;
        try {
          await task();
        } catch (error) {
          // deno-lint-ignore no-console -- a failed cleanup must be visible
          console.error(`cleanup failed: ${error instanceof Error ? error.message : error}`);
        }
      }
      open.delete(this);
      this.#closing = undefined;
    })();
  }

  /** Same as {@linkcode Scope.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * On SIGINT or SIGTERM, closes every open scope (stopping children and etcd)
 * and exits with 130. Call once from the entry point.
 *
 * @example
 * ```ts ignore
 * import { installSignalCleanup } from "./scope.ts";
 *
 * installSignalCleanup();
 * ```
 */
export function installSignalCleanup(): void {
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // deno-lint-ignore no-console -- tell the person who pressed Ctrl-C what is happening
    console.error("\ninterrupted: stopping child processes and etcd...");
    const timer = setTimeout(() => Deno.exit(130), 15_000);
    await Promise.all([...open].map((scope) => scope.close()));
    clearTimeout(timer);
    Deno.exit(130);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}
