/**
 * `executor drain`: operator drains of executors by one or more ids or a
 * metadata selector, in one namespace or (`--all-namespaces`) wherever they
 * run; `--dry-run` shows what would be matched and moved; `--wait` waits for
 * the drained executors to be empty.
 *
 * @module
 */
import type { Context } from "./context.ts";
import { drainedText, drainWaitText, plannedMovesText } from "./drain_format.ts";
import {
  type DrainRun,
  targetDrainId,
  targetMatches,
  targetsOf,
  targetText,
} from "./drain_targets.ts";
import { resolveRuns } from "./drain_runs.ts";
import { executorsOf, waitForDrains } from "./drain_wait_command.ts";
import type { DrainWaitResult } from "./drain_wait.ts";
import { formatDuration } from "./duration.ts";
import { SmctlError, UsageError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { type DrainModel, drainModel, type ExecutorModel } from "./model.ts";
import { safeWrite } from "./safe_write.ts";

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
  /** `--dry-run`: print the executors matched and the shards that would move, store nothing. */
  readonly dryRun?: boolean;
  /** `--all-namespaces`: every namespace where a target runs. */
  readonly allNamespaces?: boolean;
}

/** A drain made by this command. */
interface Made {
  readonly namespace: string;
  readonly drain: DrainModel;
}

/**
 * Drains executors; with `--wait`, then waits for them to be empty.
 *
 * @example
 * ```ts ignore
 * import { drainExecutors } from "./executor_drain.ts";
 *
 * await drainExecutors(ctx, ["worker-7", "worker-8"], { wait: true, waitTimeout: 300_000 });
 * ```
 */
export async function drainExecutors(
  ctx: Context,
  ids: readonly string[],
  options: DrainOptions,
): Promise<void> {
  const targets = targetsOf(ids, options.selector ?? [], "executor drain");
  if (options.waitTimeoutGiven && !options.wait) {
    throw new UsageError("executor drain: --wait-timeout needs --wait");
  }
  if (options.dryRun && options.wait) {
    throw new UsageError("executor drain: --dry-run and --wait do not go together");
  }
  const runs = await resolveRuns(ctx, targets, options.allNamespaces === true);
  // The shape of one drain in one namespace stays as it always was.
  const single = runs.length === 1 && !options.allNamespaces;
  if (options.dryRun) return await dryRun(ctx, runs, single, options);
  const namespaces = [...new Set(runs.map((r) => r.namespace))];
  // Before draining, to know how many shards there are to move.
  const before = new Map<string, ExecutorModel[]>();
  if (options.wait) {
    for (const namespace of namespaces) before.set(namespace, await executorsOf(ctx, namespace));
  }
  const made: Made[] = [];
  for (const [i, run] of runs.entries()) {
    try {
      made.push(await drainOne(ctx, run, options));
    } catch (error) {
      throw partialFailure(error, made, runs.slice(i + 1));
    }
  }
  const out = ctx.output;
  if (!options.wait) {
    if (single) out.result({ namespace: made[0]!.namespace, drain: made[0]!.drain }, () => text());
    else out.result({ drains: made }, () => text());
    return;
  }
  if (!out.json) out.line(text());
  const waits: { namespace: string; wait: DrainWaitResult }[] = [];
  const deadline = Date.now() + options.waitTimeout;
  for (const namespace of namespaces) {
    const drains = made.filter((m) => m.namespace === namespace).map((m) => m.drain);
    const left = Math.max(0, deadline - Date.now());
    const wait = await waitForDrains(ctx, namespace, drains, before.get(namespace) ?? [], left);
    waits.push({ namespace, wait });
    if (!out.json) out.line(`${runs.length > 1 ? `${namespace}: ` : ""}${drainWaitText(wait)}`);
    if (!wait.completed) break;
  }
  if (out.json) {
    if (single) {
      out.printJson({ namespace: made[0]!.namespace, drain: made[0]!.drain, ...waits[0] });
    } else out.printJson({ drains: made, waits });
  }
  const late = waits.find((w) => !w.wait.completed);
  if (late) {
    const { wait } = late;
    throw new SmctlError(
      `timed out after ${
        formatDuration(options.waitTimeout)
      }: ${wait.remainingShards} of ${wait.initialShards} shards are still on ${
        Object.keys(wait.remaining).join(", ") || "the drained executors"
      }${
        single
          ? "; the drain stays"
          : ` in namespace ${JSON.stringify(late.namespace)}; the drains stay`
      } in place`,
      ExitCode.WAIT_TIMEOUT,
    );
  }

  function text(): string {
    return made.map((m) => drainedText(m.namespace, m.drain)).join("\n");
  }
}

/** Makes one drain, warning when it matches nothing yet. */
async function drainOne(ctx: Context, run: DrainRun, options: DrainOptions): Promise<Made> {
  const { namespace, target } = run;
  const answer = await safeWrite(ctx, "drainExecutors", {
    namespace,
    ...target,
    reason: options.reason ?? "",
    force: options.force === true,
    dryRun: false,
  }, `smctl -n ${namespace} executor drains`);
  if (answer.drain === null) throw new Error("DrainExecutors answered without a drain");
  const drain = drainModel(answer.drain);
  if (drain.matchedExecutorIds.length === 0) {
    ctx.output.warn(
      "executorId" in target
        ? `executor ${JSON.stringify(target.executorId)} is not registered in namespace ${
          JSON.stringify(namespace)
        }; the drain applies when it registers`
        : `no executor matches ${
          drain.id.replace(/^selector:/, "")
        } now; the drain applies to executors that register with matching metadata`,
    );
  }
  return { namespace, drain };
}

/**
 * A drain failed after others of the same command were made: the failure,
 * then what this command already drained (it stays) and what it did not try.
 */
function partialFailure(error: unknown, made: readonly Made[], rest: readonly DrainRun[]) {
  if (made.length === 0 || !(error instanceof SmctlError)) return error;
  const done = made.map((m) => `${m.drain.id} in ${m.namespace}`).join(", ");
  const untried = rest.length === 0
    ? ""
    : `; not attempted: ${rest.map((r) => `${targetText(r.target)} in ${r.namespace}`).join(", ")}`;
  return new SmctlError(
    `${
      error.message.replace(/\.?$/, "")
    }. Already drained by this command (still in place): ${done}${untried}`,
    error.exitCode,
    { cause: error },
  );
}

/** One dry run's outcome. */
interface Preview {
  readonly namespace: string;
  readonly drainId: string;
  readonly matchedExecutorIds: readonly string[];
  readonly plannedMoves: readonly { shardKey: string; from: string; to: string | null }[];
  readonly drain?: DrainModel;
  readonly refused?: string;
}

/**
 * `--dry-run`: for each target, the executors it matches now and the shards
 * that would move; a drain the service would refuse is reported (exit code
 * 5) with the executors it matched.
 */
async function dryRun(
  ctx: Context,
  runs: readonly DrainRun[],
  single: boolean,
  options: DrainOptions,
): Promise<void> {
  const previews: Preview[] = [];
  for (const { namespace, target } of runs) {
    const executors = await executorsOf(ctx, namespace);
    const matched = executors.filter((e) => targetMatches(target, e)).map((e) => e.id).sort();
    try {
      const answer = await ctx.connection.call("drainExecutors", {
        namespace,
        ...target,
        reason: options.reason ?? "",
        force: options.force === true,
        dryRun: true,
        requestId: crypto.randomUUID(),
      });
      if (answer.drain === null) throw new Error("DrainExecutors answered without a drain");
      const drain = drainModel(answer.drain);
      previews.push({
        namespace,
        drainId: drain.id,
        drain,
        matchedExecutorIds: drain.matchedExecutorIds,
        plannedMoves: answer.plannedMoves.map((m) => ({
          shardKey: m.shardKey,
          from: m.fromExecutorId,
          to: m.toExecutorId || null,
        })),
      });
    } catch (error) {
      if (!(error instanceof SmctlError) || error.exitCode !== ExitCode.FAILED_PRECONDITION) {
        throw error;
      }
      const drainId = targetDrainId(target);
      if (single) {
        // The refusal is the error; say first what the drain would have matched.
        ctx.output.result(
          { namespace, dryRun: true, drainId, matchedExecutorIds: matched, refused: error.message },
          () => `Dry run: drain ${drainId} ${matchesText(matched)}; the service refuses it.`,
        );
        throw error;
      }
      previews.push({
        namespace,
        drainId,
        matchedExecutorIds: matched,
        plannedMoves: [],
        refused: error.message,
      });
    }
  }
  const out = ctx.output;
  if (single) {
    const p = previews[0]!;
    out.result(
      { namespace: p.namespace, dryRun: true, drain: p.drain, plannedMoves: p.plannedMoves },
      () =>
        `${plannedMovesText(`Dry run: drain ${p.drainId} would move`, p.plannedMoves)}\n` +
        `Dry run: drain ${p.drainId} ${matchesText(p.matchedExecutorIds)}; nothing was drained.`,
    );
    return;
  }
  out.result({ dryRun: true, drains: previews }, () =>
    previews.map((p) => {
      const head = `Dry run: drain ${p.drainId} in namespace ${JSON.stringify(p.namespace)} ${
        matchesText(p.matchedExecutorIds)
      }`;
      return p.refused === undefined
        ? `${head}.\n${plannedMovesText("It would move", p.plannedMoves)}`
        : `${head}; the service would refuse it: ${p.refused}`;
    }).join("\n") + "\nNothing was drained.");
  const refused = previews.filter((p) => p.refused !== undefined);
  if (refused.length > 0) {
    throw new SmctlError(
      `the service would refuse ${refused.length} of ${previews.length} drains (see above)`,
      ExitCode.FAILED_PRECONDITION,
    );
  }
}

function matchesText(matched: readonly string[]): string {
  return matched.length === 0 ? "matches no executor now" : `matches ${matched.join(", ")}`;
}
