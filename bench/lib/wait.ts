/**
 * Waiting helpers.
 *
 * @module
 */

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `check` every `intervalMs` until it returns true; resolves with the
 * elapsed milliseconds, rejects after `timeoutMs` naming `what`.
 *
 * @example
 * ```ts
 * import { waitUntil } from "./wait.ts";
 *
 * let n = 0;
 * await waitUntil(() => ++n > 2, 1_000, "three polls", 1);
 * ```
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  intervalMs = 50,
): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) {
      throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    }
    await sleep(intervalMs);
  }
  return performance.now() - started;
}
