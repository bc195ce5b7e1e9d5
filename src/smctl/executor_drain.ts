/**
 * `executor drain` and `executor undrain`: operator drains of executors by id
 * or metadata selector, and `--wait` for the drained executors to be empty.
 *
 * @module
 */
import type { Context } from "./context.ts";
import { drainedText, drainWaitText, plannedMovesText, undrainedText } from "./drain_format.ts";
import { type DrainWaitResult, waitForDrain } from "./drain_wait.ts";
import { formatDuration } from "./duration.ts";
import { SmctlError, UsageError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { type DrainModel, drainModel, type ExecutorModel, executorModel } from "./model.ts";
import { ProgressReporter } from "./progress.ts";
import { safeWrite } from "./safe_write.ts";
import { selectorFrom, selectorMatches } from "./selector.ts";

/** The flags of `executor drain`. */
export interface DrainOptions {
  /** `--selector` pairs. */
  readonly selector?: string[];
  /** `--reason`. */
  readonly reason?: string;
  /** `--wait`. */
  readonly wait?: boolean;
  /** `--wait-timeout`, ms. */
  readonly waitTimeout: number;
  /** Whether `--wait-timeout` was typed (it needs `--wait`). */
  readonly waitTimeoutGiven?: boolean;
  /** `--force`: drain even past the disruption budget. */
  readonly force?: boolean;
  /** `--dry-run`: print the shards that would move, store nothing. */
  readonly dryRun?: boolean;
}

type Target = { executorId: string } | { selector: Record<string, string> };

/** Exactly one of an id and a selector, or a usage error naming both flags. */
function targetOf(id: string | undefined, pairs: readonly string[], command: string): Target {
  if (id !== undefined && pairs.length > 0) {
    throw new UsageError(`${command}: give an executor id or --selector, not both`);
  }
  if (id !== undefined) {
    if (id.trim() === "") throw new UsageError(`${command}: the executor id must not be empty`);
    return { executorId: id };
  }
  if (pairs.length === 0) {
    throw new UsageError(`${command}: give an executor id or at least one --selector key=value`);
  }
  return { selector: selectorFrom(pairs) };
}

/**
 * Drains executors; with `--wait`, then waits for them to be empty.
 *
 * @example
 * ```ts ignore
 * import { drainExecutors } from "./executor_drain.ts";
 *
 * await drainExecutors(ctx, "worker-7", { wait: true, waitTimeout: 300_000 });
 * ```
 */
export async function drainExecutors(
  ctx: Context,
  id: string | undefined,
  options: DrainOptions,
): Promise<void> {
  const namespace = ctx.namespace();
  const target = targetOf(id, options.selector ?? [], "executor drain");
  if (options.waitTimeoutGiven && !options.wait) {
    throw new UsageError("executor drain: --wait-timeout needs --wait");
  }
  if (options.dryRun && options.wait) {
    throw new UsageError("executor drain: --dry-run and --wait do not go together");
  }
  const out = ctx.output;
  // Before draining, to know how many shards there are to move.
  const before = options.wait ? await states(ctx, namespace) : [];
  const answer = await safeWrite(ctx, "drainExecutors", {
    namespace,
    ...target,
    reason: options.reason ?? "",
    force: options.force === true,
    dryRun: options.dryRun === true,
  }, `smctl -n ${namespace} executor drains`);
  if (answer.drain === null) throw new Error("DrainExecutors answered without a drain");
  const drain = drainModel(answer.drain);
  if (answer.dryRun) {
    const moves = answer.plannedMoves.map((m) => ({
      shardKey: m.shardKey,
      from: m.fromExecutorId,
      to: m.toExecutorId || null,
    }));
    out.result(
      { namespace, dryRun: true, drain, plannedMoves: moves },
      () => plannedMovesText(`Dry run: drain ${drain.id} would move`, moves),
    );
    return;
  }
  if (drain.matchedExecutorIds.length === 0) {
    out.warn(
      "executorId" in target
        ? `executor ${JSON.stringify(target.executorId)} is not registered in namespace ${
          JSON.stringify(namespace)
        }; the drain applies when it registers`
        : `no executor matches ${
          drain.id.replace(/^selector:/, "")
        } now; the drain applies to executors that register with matching metadata`,
    );
  }
  if (!options.wait) {
    out.result({ namespace, drain }, () => drainedText(namespace, drain));
    return;
  }
  if (!out.json) out.line(drainedText(namespace, drain));
  const matches = matcher(drain);
  const progress = new ProgressReporter({
    write: (text) => out.writeErr(text),
    isTerminal: out.stderrIsTerminal,
  });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  let wait: DrainWaitResult;
  try {
    wait = await waitForDrain({
      fetch: (signal) => states(ctx, namespace, signal),
      matches,
      initialShards: before.filter(matches).reduce((sum, e) => sum + e.shardCount, 0),
      timeoutMs: options.waitTimeout,
      onProgress: (moved, total) => progress.update(moved, total),
      signal: stop.signal,
    });
  } catch (error) {
    if (error instanceof SmctlError && error.exitCode === ExitCode.INTERRUPTED) {
      throw new SmctlError(
        `${error.message}; undo with: smctl -n ${namespace} executor undrain ${undoArgs(drain)}`,
        ExitCode.INTERRUPTED,
      );
    }
    throw error;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    progress.finish();
  }
  if (out.json) out.printJson({ namespace, drain, wait });
  else out.line(drainWaitText(wait));
  if (!wait.completed) {
    throw new SmctlError(
      `timed out after ${
        formatDuration(options.waitTimeout)
      }: ${wait.remainingShards} of ${wait.initialShards} shards are still on ${
        Object.keys(wait.remaining).join(", ") || "the drained executors"
      }; the drain stays in place`,
      ExitCode.WAIT_TIMEOUT,
    );
  }
}

/**
 * Removes an executor drain.
 *
 * @example
 * ```ts ignore
 * import { undrainExecutors } from "./executor_drain.ts";
 *
 * await undrainExecutors(ctx, "worker-7", []);
 * ```
 */
export async function undrainExecutors(
  ctx: Context,
  id: string | undefined,
  pairs: readonly string[],
): Promise<void> {
  const namespace = ctx.namespace();
  const target = targetOf(id, pairs, "executor undrain");
  const answer = await safeWrite(
    ctx,
    "undrainExecutors",
    { namespace, ...target },
    `smctl -n ${namespace} executor drains`,
  );
  const removed = answer.removed === null ? null : drainModel(answer.removed);
  const still = answer.stillDrainedExecutorIds;
  if (still.length > 0) {
    ctx.output.warn(`still drained by other drains: ${still.join(", ")}`);
  }
  const asked = {
    executorId: "executorId" in target ? target.executorId : null,
    selector: "selector" in target ? target.selector : null,
  };
  ctx.output.result(
    { namespace, removed, stillDrainedExecutorIds: still },
    () => undrainedText(namespace, asked, removed),
  );
}

function matcher(drain: DrainModel): (e: ExecutorModel) => boolean {
  return (e) =>
    e.drainedBy.includes(drain.id) || drain.matchedExecutorIds.includes(e.id) ||
    (drain.executorId !== null && e.id === drain.executorId) ||
    (drain.selector !== null && selectorMatches(e.metadata, drain.selector));
}

function undoArgs(drain: DrainModel): string {
  if (drain.selector === null) return drain.executorId ?? "";
  return Object.entries(drain.selector).map(([k, v]) => `--selector '${k}=${v}'`).join(" ");
}

async function states(
  ctx: Context,
  namespace: string,
  signal?: AbortSignal,
): Promise<ExecutorModel[]> {
  const state = await ctx.connection.call("getNamespaceState", { namespace }, signal);
  return state.executors.map(executorModel);
}
