/**
 * Warm handovers in flight in a namespace, for operators (the dashboard):
 * which shard moves from which executor to which, since when, and whether the
 * incoming owner has prepared it.
 *
 * @module
 */
import type { NamespaceView } from "../state/namespace_view.ts";
import type { HandoversView, HandoverView } from "./views.ts";

/** Handovers listed at most (the total is always given). */
export const HANDOVERS_LISTED = 100;

/**
 * The warm handovers in flight in `view`, oldest first, at most `limit`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceState } from "../state/namespace_state.ts";
 * import { handoversInFlight } from "./handovers.ts";
 *
 * const state = new NamespaceState("ns", { heartbeatTtlMs: 2_000 });
 * state.apply({ revision: 5, events: [{ type: "assignment", seq: 1, delta: { assign: { a: ["0"] }, unassign: [], remove: [] } }] }, 0);
 * state.apply({ revision: 6, events: [{ type: "assignment", seq: 2, delta: { assign: {}, unassign: [], remove: [], prepare: { b: ["0"] }, atMs: 1_000 } }] }, 1);
 * assert.deepEqual(handoversInFlight(state), {
 *   total: 1,
 *   items: [{ shardKey: "0", from: "a", to: "b", sinceMs: 1_000, prepared: false }],
 * });
 * ```
 */
export function handoversInFlight(view: NamespaceView, limit = HANDOVERS_LISTED): HandoversView {
  const { preparing } = view.tables();
  const items: HandoverView[] = [];
  for (const [shardKey, entry] of preparing) {
    const from = view.ownerOf(shardKey);
    if (from === undefined) continue;
    const sinceMs = view.preparingAtMs(shardKey);
    items.push({
      shardKey,
      from,
      to: entry.executor,
      ...(sinceMs === undefined ? {} : { sinceMs }),
      prepared: view.executor(entry.executor)?.reports.get(shardKey)?.status === "PREPARED",
    });
  }
  items.sort((a, b) => (a.sinceMs ?? 0) - (b.sinceMs ?? 0) || (a.shardKey < b.shardKey ? -1 : 1));
  return { total: items.length, items: items.slice(0, limit) };
}
