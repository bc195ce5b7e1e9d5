/**
 * `smctl executor can-stop`: asks whether executors may stop now (the
 * `CanStopExecutors` RPC), for a rolling deploy. Prints the answer and exits
 * 0 when every executor may stop, 7 (`ExitCode.MUST_WAIT`) when some must
 * wait; the answer then names those that may stop first.
 *
 * @module
 */
import type { CanStopExecutorsResponse__Output } from "../wire/proto.ts";
import type { Context } from "./context.ts";
import { SmctlError, UsageError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import type { Palette } from "./colour.ts";
import { selectorFrom } from "./selector.ts";
import { renderTable } from "./table.ts";

/** The flags of `executor can-stop`. */
export interface CanStopOptions {
  /** `--selector` pairs. */
  readonly selector?: readonly string[];
  /** `--all-namespaces`. */
  readonly allNamespaces?: boolean;
}

/** The answer as smctl prints it with `-o json`. */
export interface CanStopModel {
  /** The namespace asked about; absent for every namespace. */
  readonly namespace?: string;
  /** True when every executor may stop now. */
  readonly allowed: boolean;
  /** The executors asked about. */
  readonly executors: readonly string[];
  /** Those that may stop now, together. */
  readonly mayStop: readonly string[];
  /** Those that must wait. */
  readonly mustWait: readonly string[];
  /** Ids no namespace knows (they may stop). */
  readonly unknown: readonly string[];
  /** Per namespace. */
  readonly namespaces: readonly {
    readonly namespace: string;
    readonly allowed: boolean;
    readonly reason: string;
    readonly exclusive: boolean;
    readonly live: number;
    readonly outBefore: number;
    readonly outAfter: number;
    readonly eligibleAfter: number;
    readonly maxDrainedShare: number;
    readonly executors: readonly {
      readonly id: string;
      readonly status: string;
      readonly alive: boolean;
      readonly drained: boolean;
      readonly leaving: boolean;
      readonly shards: number;
      readonly pendingHandovers: number;
      readonly mayStop: boolean;
    }[];
  }[];
}

/**
 * The printed model of a `CanStopExecutors` answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canStopModel } from "./executor_can_stop.ts";
 *
 * const model = canStopModel(undefined, {
 *   allowed: true, executorIds: ["a"], mayStopExecutorIds: ["a"], mustWaitExecutorIds: [],
 *   unknownExecutorIds: [], namespaces: [],
 * });
 * assert.deepEqual(model.mayStop, ["a"]);
 * ```
 */
export function canStopModel(
  namespace: string | undefined,
  answer: CanStopExecutorsResponse__Output,
): CanStopModel {
  return {
    ...(namespace === undefined ? {} : { namespace }),
    allowed: answer.allowed,
    executors: answer.executorIds,
    mayStop: answer.mayStopExecutorIds,
    mustWait: answer.mustWaitExecutorIds,
    unknown: answer.unknownExecutorIds,
    namespaces: answer.namespaces.map((n) => ({
      namespace: n.namespace,
      allowed: n.allowed,
      reason: n.reason,
      exclusive: n.exclusive,
      live: n.liveExecutors,
      outBefore: n.outBefore,
      outAfter: n.outAfter,
      eligibleAfter: n.eligibleAfter,
      maxDrainedShare: n.maxDrainedShare,
      executors: n.executors.map((e) => ({
        id: e.executorId,
        status: e.status,
        alive: e.alive,
        drained: e.drained,
        leaving: e.leaving,
        shards: e.shards,
        pendingHandovers: e.pendingHandovers,
        mayStop: e.mayStop,
      })),
    })),
  };
}

/**
 * The answer for people: a verdict line, a table of the executors per
 * namespace, and each refusing namespace's reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { palette } from "./colour.ts";
 * import { canStopText } from "./executor_can_stop.ts";
 *
 * const text = canStopText({
 *   allowed: false, executors: ["a", "b"], mayStop: ["a"], mustWait: ["b"], unknown: [],
 *   namespaces: [],
 * }, palette(false));
 * assert.match(text, /^1 of 2 executors may stop now: a\. Wait: b/);
 * ```
 */
export function canStopText(model: CanStopModel, paint: Palette): string {
  const n = model.executors.length;
  const lines: string[] = [];
  if (n === 0) lines.push("No executor matches; nothing to wait for.");
  else if (model.allowed) {
    lines.push(`${n === 1 ? "The executor" : `All ${n} executors`} may stop now.`);
  } else {
    lines.push(
      `${model.mayStop.length} of ${n} executors may stop now${
        model.mayStop.length > 0 ? `: ${model.mayStop.join(", ")}` : ""
      }. Wait: ${model.mustWait.join(", ")}.`,
    );
  }
  if (model.unknown.length > 0) {
    lines.push(`Not known in any namespace (may stop): ${model.unknown.join(", ")}.`);
  }
  const rows = model.namespaces.flatMap((ns) =>
    ns.executors.map((e) => [
      ns.namespace + (ns.exclusive ? " (exclusive)" : ""),
      e.id,
      e.status + (e.alive ? "" : " (stale)"),
      e.drained ? "yes" : "no",
      String(e.shards),
      String(e.pendingHandovers),
      e.mayStop ? paint.green("yes") : paint.red("wait"),
    ])
  );
  if (rows.length > 0) {
    lines.push(renderTable(
      [
        { header: "NAMESPACE" },
        { header: "EXECUTOR" },
        { header: "STATUS" },
        { header: "DRAINED" },
        { header: "SHARDS", align: "right" },
        { header: "PENDING", align: "right" },
        { header: "MAY STOP" },
      ],
      rows,
      { palette: paint },
    ));
  }
  for (const ns of model.namespaces) {
    if (!ns.allowed) lines.push(`${ns.namespace}: ${ns.reason}`);
  }
  return lines.join("\n");
}

/**
 * Asks and prints; throws a `SmctlError` with `ExitCode.MUST_WAIT` when not
 * every executor may stop (after printing the answer).
 *
 * @example
 * ```ts ignore
 * import { canStopExecutors } from "./executor_can_stop.ts";
 *
 * await canStopExecutors(ctx, [], { selector: ["zone=a"], allNamespaces: true });
 * ```
 */
export async function canStopExecutors(
  ctx: Context,
  ids: readonly string[],
  options: CanStopOptions,
): Promise<void> {
  const selector = options.selector ?? [];
  if (ids.length > 0 && selector.length > 0) {
    throw new UsageError("give executor ids or --selector pairs, not both");
  }
  if (ids.length === 0 && selector.length === 0) {
    throw new UsageError("give executor ids or --selector key=value");
  }
  const given = ctx.options.namespace?.trim() || ctx.savedContext()?.namespace?.trim();
  const namespace = options.allNamespaces ? undefined : given || undefined;
  const answer = await ctx.connection.call("canStopExecutors", {
    namespace: namespace ?? "",
    executorIds: [...ids],
    selector: selector.length > 0 ? selectorFrom(selector) : {},
  });
  const model = canStopModel(namespace, answer);
  ctx.output.result(model, () => canStopText(model, ctx.output.palette));
  if (!model.allowed) {
    throw new SmctlError(
      `${model.mustWait.length} of ${model.executors.length} executors must wait: ${
        model.mustWait.join(", ")
      }`,
      ExitCode.MUST_WAIT,
    );
  }
}
