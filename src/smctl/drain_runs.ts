/**
 * Where `executor drain` and `executor undrain` act: the namespace of `-n`,
 * or with `--all-namespaces` every namespace where a target runs now.
 *
 * @module
 */
import type { Context } from "./context.ts";
import {
  type DrainRun,
  type DrainTargetArg,
  runsEverywhere,
  type SeenExecutor,
} from "./drain_targets.ts";

/**
 * The (namespace, target) pairs to act on, namespace by namespace.
 *
 * @example
 * ```ts ignore
 * import { resolveRuns } from "./drain_runs.ts";
 *
 * const runs = await resolveRuns(ctx, [{ executorId: "worker-7" }], true);
 * ```
 */
export async function resolveRuns(
  ctx: Context,
  targets: readonly DrainTargetArg[],
  allNamespaces: boolean,
): Promise<DrainRun[]> {
  if (!allNamespaces) {
    const namespace = ctx.namespace();
    return targets.map((target) => ({ namespace, target }));
  }
  const { namespaces } = await ctx.connection.call("listNamespaces", {});
  const seen = new Map<string, readonly SeenExecutor[]>();
  for (const { name } of namespaces) {
    const state = await ctx.connection.call("getNamespaceState", { namespace: name });
    seen.set(name, state.executors.map((e) => ({ id: e.executorId, metadata: e.metadata ?? {} })));
  }
  return runsEverywhere(targets, seen);
}
