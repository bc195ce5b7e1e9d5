/**
 * Which stale executors leave the spectators' routing view in a pass: those
 * that hold no shard once the pass's change is applied. The decision is part
 * of the committed change (`AssignmentDelta.hide`, with the heartbeat revision
 * judged), so every instance, every snapshot and every delta agree on it.
 *
 * @module
 */
import type { AssignmentDelta } from "../core/types.ts";
import type { ExecutorAt } from "./plan.ts";
import { type PlanInput, shardsOf } from "./plan_input.ts";

/**
 * Stale executors, not hidden yet and not about to be forgotten (`forget`),
 * that hold nothing after `delta`, each with its heartbeat revision.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceState } from "../state/namespace_state.ts";
 * import { planInput } from "./plan_input.ts";
 * import { staleToHide } from "./hide_stale.ts";
 *
 * const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
 * const none = { assign: {}, unassign: [], remove: [] };
 * assert.deepEqual(staleToHide(planInput(state, 0), none, []), {});
 * ```
 */
export function staleToHide(
  input: PlanInput,
  delta: AssignmentDelta,
  forget: readonly ExecutorAt[],
): Record<string, number> {
  const forgotten = new Set(forget.map((f) => f.executorId));
  const hide: Record<string, number> = {};
  let after: { owners: Map<string, string>; gone: Set<string> } | undefined;
  for (const e of input.executors.values()) {
    const id = e.executorId;
    if (e.alive || input.hidden.has(id) || forgotten.has(id) || delta.assign[id]?.length) {
      continue;
    }
    after ??= { owners: ownersIn(delta), gone: new Set([...delta.unassign, ...delta.remove]) };
    if (!holdsAfter(input, delta, after, id)) hide[id] = e.heartbeatRevision;
  }
  return hide;
}

/** `delta` with `hide` set for the stale executors it leaves with nothing (unchanged if none). */
export function withHidden(
  input: PlanInput,
  delta: AssignmentDelta,
  forget: readonly ExecutorAt[],
): AssignmentDelta {
  const hide = staleToHide(input, delta, forget);
  return Object.keys(hide).length > 0 ? { ...delta, hide } : delta;
}

function ownersIn(delta: AssignmentDelta): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [executor, shards] of Object.entries(delta.assign)) {
    for (const shard of shards) owners.set(shard, executor);
  }
  return owners;
}

/** Whether `id` still owns a shard (alone or in an owner set) once `delta` is applied. */
function holdsAfter(
  input: PlanInput,
  delta: AssignmentDelta,
  after: { readonly owners: ReadonlyMap<string, string>; readonly gone: ReadonlySet<string> },
  id: string,
): boolean {
  for (const shard of shardsOf(input, id)) {
    const next = after.owners.get(shard);
    if (
      next === undefined ? !after.gone.has(shard) : next === id || delta.sets?.[shard]?.includes(id)
    ) {
      return true;
    }
  }
  return false;
}
