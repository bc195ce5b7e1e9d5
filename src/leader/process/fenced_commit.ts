/**
 * Writing a pass's plan: the assignment change as one constant-size fenced
 * commit, a compaction of the change log every {@linkcode COMPACT_EVERY}
 * changes, then the clean-ups (executors forgotten, requests cleared), each
 * fenced by the leader's claim. Only here does the leader speak the store's
 * language (its `Versioned` conditions).
 *
 * @module
 */
import { FencedError } from "../../core/errors.ts";
import type { AssignmentDelta } from "../../core/types.ts";
import type { ExecutorAt, Plan } from "../../plan/mod.ts";
import type { NamespaceCache } from "../../state/namespace_cache.ts";
import {
  type Fence,
  MAX_UNCHANGED_EXECUTORS,
  type Store,
  type Versioned,
} from "../../store/store.ts";

/** Fold the change log into a snapshot every this many changes. */
export const COMPACT_EVERY = 64;

/** A commit that relied on expired leases was refused: one of those executors was heard from. */
export class HeardFromError extends Error {
  override readonly name = "HeardFromError";
}

/** A plan's executor as the store's conditional writes name it. */
function atRevision({ executorId, heartbeatRevision }: ExecutorAt): Versioned {
  return { id: executorId, revision: heartbeatRevision };
}

/**
 * Commits `delta` as change `seq`, fenced by `fence` and by the executors
 * the plan relied on (and `lost`: executors the pass judged lost, which
 * must not have heartbeated since; as many as fit); resolves with the
 * commit's store revision. Throws `HeardFromError` when a relied-on
 * executor was heard from (the next pass replans), `FencedError` when
 * leadership is lost.
 */
export async function commitChange(
  store: Store,
  cache: NamespaceCache,
  fence: Fence,
  change: {
    readonly seq: number;
    readonly delta: AssignmentDelta;
    readonly plan: Plan;
    readonly lost?: readonly ExecutorAt[];
  },
): Promise<number> {
  const { seq, delta, plan } = change;
  const relied = new Map(plan.reliedOn.map((e) => [e.executorId, e]));
  for (const e of change.lost ?? []) {
    if (relied.size >= MAX_UNCHANGED_EXECUTORS) break;
    if (!relied.has(e.executorId)) relied.set(e.executorId, e);
  }
  const reliedOn = [...relied.values()].map(atRevision);
  return await store.commitAssignment(fence, seq, delta, reliedOn).catch((error) => {
    // Refused because a relied-on executor heartbeated, or fenced: the next pass tells.
    const stillLeading = cache.state.leader?.revision === fence.revision;
    if (error instanceof FencedError && reliedOn.length > 0 && stillLeading) {
      throw new HeardFromError(`Assignment change ${seq} was refused`, { cause: error });
    }
    throw error;
  });
}

/**
 * Folds the change log into a snapshot of the cache's picture when change
 * `seq` (already applied by the cache) is due for it.
 */
export async function compactIfDue(
  store: Store,
  cache: NamespaceCache,
  fence: Fence,
  seq: number,
): Promise<void> {
  if (seq % COMPACT_EVERY !== 0) return;
  const tables = cache.state.tables();
  await store.compactAssignment(fence, seq, {
    owners: tables.owners,
    ownerSets: tables.ownerSets,
    revisions: tables.assignedRevisions,
    times: tables.assignmentTimes,
    releasing: tables.releasing,
    preparing: tables.preparing,
    hidden: tables.hidden,
    ...(tables.slices === undefined ? {} : { slices: tables.slices }),
  });
}

/** Forgets the plan's stale executors and clears its answered requests, fenced. */
export async function cleanUpAfter(store: Store, fence: Fence, plan: Plan): Promise<void> {
  if (plan.forget.length > 0) await store.removeExecutors(fence, plan.forget.map(atRevision));
  if (plan.answered.length > 0) {
    await store.clearRequests(
      fence,
      plan.answered.map(({ shardKey, revision }) => ({ id: shardKey, revision })),
    );
  }
}
