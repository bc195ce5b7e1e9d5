/**
 * `executor undrain`: removes the drains made with the given ids or
 * selector, in one namespace or (`--all-namespaces`) in every namespace that
 * has them; `--dry-run` lists the drains that would be removed.
 *
 * @module
 */
import type { Context } from "./context.ts";
import { undrainedText } from "./drain_format.ts";
import { type DrainRun, targetDrainId, targetsOf } from "./drain_targets.ts";
import { SmctlError } from "./errors.ts";
import { type DrainModel, drainModel } from "./model.ts";
import { safeWrite } from "./safe_write.ts";

/** The flags of `executor undrain`. */
export interface UndrainOptions {
  /** `--selector` pairs. */
  readonly selector?: string[];
  /** `--all-namespaces`: every namespace that has such a drain. */
  readonly allNamespaces?: boolean;
  /** `--dry-run`: list the drains that would be removed; change nothing. */
  readonly dryRun?: boolean;
}

/** What was undone in one namespace. */
interface Undone {
  readonly namespace: string;
  readonly target: DrainRun["target"];
  readonly removed: DrainModel | null;
  readonly stillDrainedExecutorIds: readonly string[];
}

/**
 * Removes executor drains.
 *
 * @example
 * ```ts ignore
 * import { undrainExecutors } from "./executor_undrain.ts";
 *
 * await undrainExecutors(ctx, ["worker-7", "worker-8"], { allNamespaces: true });
 * ```
 */
export async function undrainExecutors(
  ctx: Context,
  ids: readonly string[],
  options: UndrainOptions,
): Promise<void> {
  const targets = targetsOf(ids, options.selector ?? [], "executor undrain");
  const single = targets.length === 1 && !options.allNamespaces;
  const existing = new Map<string, DrainModel[]>();
  const drainsOf = async (namespace: string) => {
    if (!existing.has(namespace)) {
      const answer = await ctx.connection.call("listExecutorDrains", { namespace });
      existing.set(namespace, answer.drains.map(drainModel));
    }
    return existing.get(namespace)!;
  };
  let runs: DrainRun[];
  if (options.allNamespaces) {
    runs = [];
    const { namespaces } = await ctx.connection.call("listNamespaces", {});
    for (const { name } of namespaces) {
      const ids = new Set((await drainsOf(name)).map((d) => d.id));
      for (const target of targets) {
        if (ids.has(targetDrainId(target))) runs.push({ namespace: name, target });
      }
    }
  } else {
    const namespace = ctx.namespace();
    runs = targets.map((target) => ({ namespace, target }));
  }
  const out = ctx.output;
  if (options.dryRun) {
    const would: { namespace: string; drainId: string; drain: DrainModel | null }[] = [];
    for (const run of runs) {
      const drain = (await drainsOf(run.namespace)).find((d) => d.id === targetDrainId(run.target));
      would.push({
        namespace: run.namespace,
        drainId: targetDrainId(run.target),
        drain: drain ?? null,
      });
    }
    out.result(
      { dryRun: true, drains: would },
      () =>
        would.length === 0
          ? "Dry run: no such drain in any namespace; nothing would be removed."
          : would.map((w) =>
            w.drain === null
              ? `Dry run: drain ${w.drainId} is not in namespace ${
                JSON.stringify(w.namespace)
              }; nothing to remove.`
              : `Dry run: would remove drain ${w.drainId} in namespace ${
                JSON.stringify(w.namespace)
              } (matches ${
                w.drain.matchedExecutorIds.length === 0
                  ? "no executor"
                  : w.drain.matchedExecutorIds.join(", ")
              }).`
          ).join("\n"),
    );
    return;
  }
  const done: Undone[] = [];
  for (const run of runs) {
    try {
      const answer = await safeWrite(
        ctx,
        "undrainExecutors",
        { namespace: run.namespace, ...run.target },
        `smctl -n ${run.namespace} executor drains`,
      );
      const still = answer.stillDrainedExecutorIds;
      if (still.length > 0) {
        out.warn(
          `still drained by other drains${single ? "" : ` in ${run.namespace}`}: ${
            still.join(", ")
          }`,
        );
      }
      done.push({
        namespace: run.namespace,
        target: run.target,
        removed: answer.removed === null ? null : drainModel(answer.removed),
        stillDrainedExecutorIds: still,
      });
    } catch (error) {
      if (done.length === 0 || !(error instanceof SmctlError)) throw error;
      throw new SmctlError(
        `${error.message.replace(/\.?$/, "")}. Already undrained by this command: ${
          done.map((d) => `${targetDrainId(d.target)} in ${d.namespace}`).join(", ")
        }`,
        error.exitCode,
        { cause: error },
      );
    }
  }
  const text = (u: Undone) =>
    undrainedText(u.namespace, {
      executorId: "executorId" in u.target ? u.target.executorId : null,
      selector: "selector" in u.target ? u.target.selector : null,
    }, u.removed);
  if (single) {
    const u = done[0]!;
    out.result(
      {
        namespace: u.namespace,
        removed: u.removed,
        stillDrainedExecutorIds: u.stillDrainedExecutorIds,
      },
      () => text(u),
    );
    return;
  }
  out.result(
    { undrained: done.map(({ target: _, ...rest }) => rest) },
    () =>
      done.length === 0
        ? "No such drain in any namespace; nothing to undo."
        : done.map(text).join("\n"),
  );
}
