/**
 * `executor drain --wait` in one namespace: progress on stderr until the
 * drained executors hold no shards, Ctrl-C ends the wait (the drains stay).
 *
 * @module
 */
import type { Context } from "./context.ts";
import { type DrainWaitResult, waitForDrain } from "./drain_wait.ts";
import { SmctlError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { type DrainModel, type ExecutorModel, executorModel } from "./model.ts";
import { ProgressReporter } from "./progress.ts";
import { selectorMatches } from "./selector.ts";

/**
 * The executors of `namespace` as listed now.
 *
 * @example
 * ```ts ignore
 * import { executorsOf } from "./drain_wait_command.ts";
 *
 * const executors = await executorsOf(ctx, "orders");
 * ```
 */
export async function executorsOf(
  ctx: Context,
  namespace: string,
  signal?: AbortSignal,
): Promise<ExecutorModel[]> {
  const state = await ctx.connection.call("getNamespaceState", { namespace }, signal);
  return state.executors.map(executorModel);
}

/**
 * Whether any of `drains` applies to an executor.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drainsMatcher } from "./drain_wait_command.ts";
 *
 * const matches = drainsMatcher([{
 *   id: "id:a", kind: "id", executorId: "a", selector: null, reason: "", createdAt: null,
 *   matchedExecutorIds: [],
 * }]);
 * assert.equal(matches({ id: "a", drainedBy: [], metadata: {} }), true);
 * assert.equal(matches({ id: "b", drainedBy: [], metadata: {} }), false);
 * ```
 */
export function drainsMatcher(
  drains: readonly DrainModel[],
): (e: Pick<ExecutorModel, "id" | "drainedBy" | "metadata">) => boolean {
  return (e) =>
    drains.some((drain) =>
      e.drainedBy.includes(drain.id) || drain.matchedExecutorIds.includes(e.id) ||
      (drain.executorId !== null && e.id === drain.executorId) ||
      (drain.selector !== null && selectorMatches(e.metadata, drain.selector))
    );
}

/**
 * The arguments that undo `drains` with `executor undrain`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { undoArgs } from "./drain_wait_command.ts";
 *
 * const drain = {
 *   id: "id:a", kind: "id" as const, executorId: "a", selector: null, reason: "",
 *   createdAt: null, matchedExecutorIds: [],
 * };
 * assert.equal(undoArgs([drain, { ...drain, executorId: "b" }]), "a b");
 * ```
 */
export function undoArgs(drains: readonly DrainModel[]): string {
  const ids = drains.filter((d) => d.selector === null).map((d) => d.executorId ?? "");
  const selectors = drains.filter((d) => d.selector !== null).map((d) =>
    Object.entries(d.selector!).map(([k, v]) => `--selector '${k}=${v}'`).join(" ")
  );
  return [...(ids.length > 0 ? [ids.join(" ")] : []), ...selectors].join("; ");
}

/**
 * Waits until no executor `drains` match holds a shard in `namespace`, or
 * `timeoutMs` passes; `before` is the listing from before the drains (to
 * count the shards to move).
 *
 * @example
 * ```ts ignore
 * import { waitForDrains } from "./drain_wait_command.ts";
 *
 * const result = await waitForDrains(ctx, "orders", drains, before, 300_000);
 * ```
 */
export async function waitForDrains(
  ctx: Context,
  namespace: string,
  drains: readonly DrainModel[],
  before: readonly ExecutorModel[],
  timeoutMs: number,
): Promise<DrainWaitResult> {
  const out = ctx.output;
  const matches = drainsMatcher(drains);
  const progress = new ProgressReporter({
    write: (text) => out.writeErr(text),
    isTerminal: out.stderrIsTerminal,
  });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    return await waitForDrain({
      fetch: (signal) => executorsOf(ctx, namespace, signal),
      matches,
      initialShards: before.filter(matches).reduce((sum, e) => sum + e.shardCount, 0),
      timeoutMs,
      onProgress: (moved, total) => progress.update(moved, total),
      signal: stop.signal,
    });
  } catch (error) {
    if (error instanceof SmctlError && error.exitCode === ExitCode.INTERRUPTED) {
      throw new SmctlError(
        `${error.message}; undo with: smctl -n ${namespace} executor undrain ${undoArgs(drains)}`,
        ExitCode.INTERRUPTED,
      );
    }
    throw error;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    progress.finish();
  }
}
