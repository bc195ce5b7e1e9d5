/**
 * Helpers for the tests of `examples/`: polling with a deadline, and running
 * an example's nodes as child processes whose output is kept for failure
 * messages.
 *
 * @module
 */
import { type Child, spawnChild } from "../../examples/_shared/child.ts";

/** Options of {@linkcode waitFor}. */
export interface WaitForOptions {
  /** Give up after this long. @default {30000} */
  readonly timeoutMs?: number;
  /** Time between probes. @default {100} */
  readonly intervalMs?: number;
}

/**
 * Probes until `probe` returns something other than `undefined` or `false`
 * and returns it; throws `message()` (evaluated then) after the deadline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { waitFor } from "./example_harness.ts";
 *
 * let count = 0;
 * const n = await waitFor(() => (++count > 3 ? count : undefined), () => `count is ${count}`, {
 *   intervalMs: 1,
 * });
 * assert.equal(n, 4);
 * await assert.rejects(
 *   waitFor(() => false, () => "never true", { timeoutMs: 10, intervalMs: 1 }),
 *   /Timed out: never true/,
 * );
 * ```
 */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  message: () => string,
  options: WaitForOptions = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out: ${message()}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}

/** Child processes of one test, with everything they printed. */
export class Nodes implements AsyncDisposable {
  readonly #children: Child[] = [];
  readonly #output: string[] = [];

  /** Starts `script` with `args` as the node `name`. */
  start(script: URL, name: string, args: readonly string[]): Child {
    const child = spawnChild(script, args, {
      name,
      onLine: (line, stream) => this.#output.push(stream === "stderr" ? `${name}! ${line}` : line),
    });
    this.#children.push(child);
    return child;
  }

  /** The running children. */
  get children(): readonly Child[] {
    return this.#children;
  }

  /** The last `lines` lines the children printed, for failure messages. */
  output(lines = 60): string {
    return this.#output.slice(-lines).join("\n");
  }

  /** Stops every child gracefully (SIGTERM), escalating to SIGKILL after `graceMs`. */
  async stop(graceMs = 8_000): Promise<void> {
    await Promise.all(this.#children.map((child) => child.stop(graceMs)));
  }

  /** Kills every child that is still running. */
  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.#children.map((child) => child.kill("SIGKILL")));
  }
}
