/**
 * Who is calling, for the history of operator changes. The transport runs
 * each operator call inside {@linkcode asOperator}; the history log reads
 * {@linkcode currentOperator} when it records an operator event, so the
 * services between them need not pass the caller along. Background work
 * started during a call (a namespace's runtime, say) inherits the context,
 * which is why the history attaches it to operator events only
 * ({@linkcode OPERATOR_EVENTS}).
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { HistoryEventType } from "../core/history_event.ts";

const operator = new AsyncLocalStorage<string>();

/** The history events an operator's call makes; only these name the caller. */
export const OPERATOR_EVENTS: ReadonlySet<HistoryEventType> = new Set<HistoryEventType>([
  "executor_drained",
  "executor_undrained",
  "shards_drained",
  "shards_undrained",
  "namespace_created",
  "namespace_updated",
  "namespace_deleted",
  "operator_refused",
]);

/**
 * Runs `fn` as a call by `identity` (a token's name, a certificate's
 * subject, `anonymous (<peer>)`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { asOperator, currentOperator } from "./operator_identity.ts";
 *
 * const seen = await asOperator("ops-token", async () => {
 *   await Promise.resolve();
 *   return currentOperator();
 * });
 * assert.equal(seen, "ops-token");
 * assert.equal(currentOperator(), undefined);
 * ```
 */
export function asOperator<T>(identity: string, fn: () => T): T {
  return operator.run(identity, fn);
}

/** The caller of the operator call running now, if one is. */
export function currentOperator(): string | undefined {
  return operator.getStore();
}
