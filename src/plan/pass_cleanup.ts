/**
 * The clean-ups that go with a pass's change: stale executors to forget and
 * shard requests the change answers.
 *
 * @module
 */
import type { AssignmentDelta } from "../core/types.ts";
import { withHidden } from "./hide_stale.ts";
import type { ExecutorAt, RequestAt } from "./plan.ts";
import { type PlanInput, shardsOf } from "./plan_input.ts";

/**
 * Executors unseen for longer than `retentionMs` that own nothing once
 * `delta` is committed and get nothing in it. With `movedAway` (cells), a
 * shard the delta assigns elsewhere counts as given up too; otherwise such an
 * executor is forgotten by the next pass, once the change is applied.
 */
export function forgettable(
  input: PlanInput,
  retentionMs: number,
  delta: AssignmentDelta,
  options: { readonly movedAway?: boolean } = {},
): ExecutorAt[] {
  const gone = new Set([...delta.unassign, ...delta.remove]);
  if (options.movedAway) {
    for (const shards of Object.values(delta.assign)) {
      for (const s of shards) gone.add(s);
    }
  }
  const forget: ExecutorAt[] = [];
  for (const e of input.executors.values()) {
    if (input.now - e.seenAtMs <= retentionMs || delta.assign[e.executorId]) continue;
    let keeps = false;
    for (const shard of shardsOf(input, e.executorId)) {
      if (!gone.has(shard)) {
        keeps = true;
        break;
      }
    }
    if (!keeps) forget.push({ executorId: e.executorId, heartbeatRevision: e.heartbeatRevision });
  }
  return forget;
}

/** Requests answered by the picture or by `delta`: owned, assigned, drained or finished. */
export function answeredRequests(
  input: PlanInput,
  delta: AssignmentDelta,
  done: ReadonlySet<string>,
): RequestAt[] {
  const assigned = new Set(Object.values(delta.assign).flat());
  const answered: RequestAt[] = [];
  for (const [shardKey, revision] of input.requested) {
    if (
      input.owners.has(shardKey) || assigned.has(shardKey) || input.drained.has(shardKey) ||
      done.has(shardKey)
    ) {
      answered.push({ shardKey, revision });
    }
  }
  return answered;
}

/**
 * What a balanced or replicated pass adds to its change: executors to forget,
 * requests answered, and stale executors the change leaves with nothing
 * hidden from the routing view (`delta.hide`; none while `holding`, the
 * cold-start wait of a namespace that never had an owner, see `churn_rules.ts`).
 */
export function cleanUp(
  input: PlanInput,
  retentionMs: number,
  delta: AssignmentDelta,
  done: ReadonlySet<string>,
  options: { readonly holding?: boolean } = {},
): { delta: AssignmentDelta; forget: ExecutorAt[]; answered: RequestAt[] } {
  const forget = forgettable(input, retentionMs, delta);
  return {
    // A first deploy that waits commits nothing, hiding included: its first committed
    // change is its first placement, which marks for good that it had owners (`hadOwners`).
    delta: options.holding ? delta : withHidden(input, delta, forget),
    forget,
    answered: answeredRequests(input, delta, done),
  };
}
