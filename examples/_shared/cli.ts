/**
 * Small command-line helpers shared by the examples: timestamped output,
 * number flags, and stopping on Ctrl-C.
 *
 * @module
 */

/**
 * The wall-clock time as `HH:MM:SS.mmm`, for output lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clockTime } from "./cli.ts";
 * assert.ok(/^\d\d:\d\d:\d\d\.\d{3}$/.test(clockTime(new Date())));
 * ```
 */
export function clockTime(date: Date = new Date()): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${
    pad(date.getMilliseconds(), 3)
  }`;
}

/**
 * Parses a flag as a number of at least `min`, with a message naming the
 * flag when it is not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numberFlag } from "./cli.ts";
 * assert.equal(numberFlag("nodes", "3", 1), 3);
 * ```
 */
export function numberFlag(name: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || value === "" || !Number.isFinite(n) || n < min) {
    throw new RangeError(`--${name} must be a number of at least ${min}, got ${value}`);
  }
  return n;
}

/**
 * Resolves on the first SIGINT (Ctrl-C) or SIGTERM, or when `signal`
 * aborts. Later signals do not kill the process while it shuts down (a
 * node gets Ctrl-C from the terminal and then SIGTERM from its parent);
 * with `exitOnRepeat`, a second signal exits at once with code 130.
 *
 * @example
 * ```ts ignore
 * await untilStopped({ signal: AbortSignal.timeout(60_000), exitOnRepeat: true });
 * ```
 */
export function untilStopped(
  options: { readonly signal?: AbortSignal | undefined; readonly exitOnRepeat?: boolean } = {},
): Promise<string> {
  return new Promise((resolve) => {
    let stopped = false;
    const stop = (why: string) => () => {
      if (stopped && options.exitOnRepeat && why !== "timeout") Deno.exit(130);
      stopped = true;
      resolve(why);
    };
    Deno.addSignalListener("SIGINT", stop("SIGINT"));
    Deno.addSignalListener("SIGTERM", stop("SIGTERM"));
    options.signal?.addEventListener("abort", stop("timeout"), { once: true });
  });
}

/**
 * Waits `ms` (nothing when negative) or until `signal` aborts, whichever comes first; never rejects.
 *
 * @example
 * ```ts
 * import { sleep } from "./cli.ts";
 * await sleep(1);
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}
