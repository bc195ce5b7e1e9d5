/**
 * What `executor drain` and `executor undrain` act on: the targets given on
 * the command line (several ids, or one selector) and, with
 * `--all-namespaces`, the namespaces where each target runs.
 *
 * @module
 */
import { SmctlError, UsageError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { selectorFrom, selectorMatches } from "./selector.ts";

/** One drain target: an executor id or a metadata selector. */
export type DrainTargetArg = { executorId: string } | { selector: Record<string, string> };

/** A target in one namespace. */
export interface DrainRun {
  /** The namespace. */
  readonly namespace: string;
  /** What to drain there. */
  readonly target: DrainTargetArg;
}

/**
 * The targets of `ids` and `--selector` pairs: one per id (duplicates
 * dropped, order kept), or one selector; a usage error for both or neither.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetsOf } from "./drain_targets.ts";
 *
 * assert.deepEqual(targetsOf(["a", "b", "a"], [], "executor drain"), [
 *   { executorId: "a" },
 *   { executorId: "b" },
 * ]);
 * assert.deepEqual(targetsOf([], ["zone=b"], "executor drain"), [{ selector: { zone: "b" } }]);
 * assert.throws(() => targetsOf(["a"], ["zone=b"], "executor drain"), /not both/);
 * ```
 */
export function targetsOf(
  ids: readonly string[],
  pairs: readonly string[],
  command: string,
): DrainTargetArg[] {
  if (ids.length > 0 && pairs.length > 0) {
    throw new UsageError(`${command}: give an executor id or --selector, not both`);
  }
  if (ids.length > 0) {
    if (ids.some((id) => id.trim() === "")) {
      throw new UsageError(`${command}: an executor id must not be empty`);
    }
    return [...new Set(ids)].map((executorId) => ({ executorId }));
  }
  if (pairs.length === 0) {
    throw new UsageError(`${command}: give an executor id or at least one --selector key=value`);
  }
  return [{ selector: selectorFrom(pairs) }];
}

/** An executor as `--all-namespaces` sees it. */
export interface SeenExecutor {
  /** Its id. */
  readonly id: string;
  /** Its metadata. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** Whether `target` names or matches `executor`. */
export function targetMatches(target: DrainTargetArg, executor: SeenExecutor): boolean {
  return "executorId" in target
    ? executor.id === target.executorId
    : selectorMatches(executor.metadata, target.selector);
}

/**
 * `--all-namespaces`: every namespace where a target runs (an executor
 * registered there has the id, or matches the selector), namespace by
 * namespace in the order given. A target that runs nowhere is a not-found
 * error naming it, so a typo drains nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runsEverywhere } from "./drain_targets.ts";
 *
 * const seen = new Map([
 *   ["orders", [{ id: "w1", metadata: { hostname: "h1" } }]],
 *   ["billing", [{ id: "w1", metadata: { hostname: "h1" } }, { id: "w2", metadata: {} }]],
 * ]);
 * assert.deepEqual(runsEverywhere([{ executorId: "w1" }], seen).map((r) => r.namespace), [
 *   "orders",
 *   "billing",
 * ]);
 * assert.throws(() => runsEverywhere([{ executorId: "w9" }], seen), /w9.*no namespace/);
 * ```
 */
export function runsEverywhere(
  targets: readonly DrainTargetArg[],
  executorsByNamespace: ReadonlyMap<string, readonly SeenExecutor[]>,
): DrainRun[] {
  const runs: DrainRun[] = [];
  const nowhere: string[] = [];
  for (const target of targets) {
    const found = [...executorsByNamespace].filter(([, executors]) =>
      executors.some((e) => targetMatches(target, e))
    );
    if (found.length === 0) nowhere.push(targetText(target));
    for (const [namespace] of found) runs.push({ namespace, target });
  }
  if (nowhere.length > 0) {
    throw new SmctlError(
      `${nowhere.join(", ")} ${nowhere.length === 1 ? "runs" : "run"} in no namespace ` +
        `(--all-namespaces acts only where such an executor is registered now); nothing was changed`,
      ExitCode.NOT_FOUND,
    );
  }
  return runs;
}

/**
 * A target for messages: `executor "a"` or `executors matching zone=b`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetText } from "./drain_targets.ts";
 *
 * assert.equal(targetText({ selector: { zone: "b" } }), "executors matching zone=b");
 * ```
 */
export function targetText(target: DrainTargetArg): string {
  return "executorId" in target
    ? `executor ${JSON.stringify(target.executorId)}`
    : `executors matching ${
      Object.entries(target.selector).map(([k, v]) => `${k}=${v}`).join(",")
    }`;
}

/**
 * A target's drain id as the service makes it (`id:a`, `selector:k=v,...`
 * with keys sorted).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetDrainId } from "./drain_targets.ts";
 *
 * assert.equal(targetDrainId({ selector: { zone: "b", hostname: "h" } }), "selector:hostname=h,zone=b");
 * ```
 */
export function targetDrainId(target: DrainTargetArg): string {
  if ("executorId" in target) return `id:${target.executorId}`;
  const pairs = Object.entries(target.selector).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `selector:${pairs.map(([k, v]) => `${k}=${v}`).join(",")}`;
}
