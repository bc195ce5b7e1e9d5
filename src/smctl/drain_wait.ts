/**
 * Waiting for drained executors to hold no shards (`executor drain --wait`):
 * polls the namespace state, reports progress, and ends when the matched
 * executors are empty or the wait times out.
 *
 * @module
 */
import { SmctlError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { sleep } from "./sleep.ts";
import type { ExecutorModel } from "./model.ts";

/** How a wait ended. */
export interface DrainWaitResult {
  /** True when the matched executors hold no shards. */
  readonly completed: boolean;
  /** Shards the matched executors held when the wait began (or later, if more). */
  readonly initialShards: number;
  /** Shards they still hold. */
  readonly remainingShards: number;
  /** `initialShards - remainingShards`. */
  readonly movedShards: number;
  /** How long the wait took, ms. */
  readonly elapsedMs: number;
  /** The executors the drain applied to, sorted. */
  readonly executors: readonly string[];
  /** Executors that still hold shards, with their counts. */
  readonly remaining: Readonly<Record<string, number>>;
}

/** Options of {@linkcode waitForDrain}. */
export interface DrainWaitOptions {
  /** Reads the namespace's executors (a `GetNamespaceState`). */
  readonly fetch: (signal: AbortSignal) => Promise<readonly ExecutorModel[]>;
  /** Whether the drain applies to an executor. */
  readonly matches: (executor: ExecutorModel) => boolean;
  /** Shards the matched executors held just before the drain. @default {0} */
  readonly initialShards?: number;
  /** Gives up after this long, ms. */
  readonly timeoutMs: number;
  /** Time between polls, ms. @default {250} */
  readonly pollMs?: number;
  /** Called after every poll with shards moved and the total. */
  readonly onProgress?: (moved: number, total: number) => void;
  /** Interrupts the wait: it rejects with an exit-code-130 `SmctlError`. */
  readonly signal?: AbortSignal;
  /** The clock, ms. @default {performance.now} */
  readonly now?: () => number;
}

/**
 * Polls until the executors `matches` selects hold no shards. Failures that
 * may pass (exit code 4: unreachable, slow) are retried until the timeout;
 * others reject at once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ExecutorModel } from "./model.ts";
 * import { waitForDrain } from "./drain_wait.ts";
 *
 * const a: ExecutorModel = {
 *   id: "a", status: "ACTIVE", alive: true, heartbeatAgeMs: 400, lastHeartbeat: null,
 *   shardCount: 0, totalLoad: 0, drained: true, drainedBy: ["id:a"], metadata: {},
 * };
 * const held = [2, 1, 0]; // what each poll finds on "a"
 * const result = await waitForDrain({
 *   fetch: () => Promise.resolve([{ ...a, shardCount: held.shift() ?? 0 }]),
 *   matches: (e) => e.id === "a",
 *   timeoutMs: 60_000,
 *   pollMs: 1,
 * });
 * assert.equal(result.completed, true);
 * assert.equal(result.movedShards, 2);
 * ```
 */
export async function waitForDrain(options: DrainWaitOptions): Promise<DrainWaitResult> {
  const now = options.now ?? (() => performance.now());
  const start = now();
  const deadline = start + options.timeoutMs;
  const signal = options.signal ?? new AbortController().signal;
  let total = options.initialShards ?? 0;
  let last: { executors: string[]; remaining: Record<string, number>; left: number } | undefined;
  while (true) {
    if (signal.aborted) throw interrupted();
    try {
      const fetched = await options.fetch(signal);
      const matched = fetched.filter(options.matches);
      const remaining: Record<string, number> = {};
      for (const e of matched) if (e.shardCount > 0) remaining[e.id] = e.shardCount;
      const left = matched.reduce((sum, e) => sum + e.shardCount, 0);
      total = Math.max(total, left);
      last = { executors: matched.map((e) => e.id).sort(), remaining, left };
      options.onProgress?.(total - left, total);
      if (left === 0) return result(true);
    } catch (error) {
      if (signal.aborted) throw interrupted();
      const passing = error instanceof SmctlError && error.exitCode === ExitCode.UNAVAILABLE;
      if (!passing) throw error;
    }
    const wait = Math.min(options.pollMs ?? 250, deadline - now());
    if (wait <= 0) return result(false);
    await sleep(wait, signal);
  }

  function result(completed: boolean): DrainWaitResult {
    const left = last?.left ?? total;
    return {
      completed,
      initialShards: total,
      remainingShards: left,
      movedShards: total - left,
      elapsedMs: Math.round(now() - start),
      executors: last?.executors ?? [],
      remaining: last?.remaining ?? {},
    };
  }
}

function interrupted(): SmctlError {
  return new SmctlError(
    "interrupted while waiting; the drain stays in place",
    ExitCode.INTERRUPTED,
  );
}
