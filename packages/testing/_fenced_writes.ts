/**
 * What no operator call does, written to the store as the namespace's
 * current leader would (fenced on its claim): give shards to chosen
 * executors, and forget an executor at once rather than after the
 * heartbeat TTL. The leader then sees these changes like its own. Test use
 * only: a running leader may plan against the state before such a write, and
 * then it loses its term and is elected again (each call here retries).
 *
 * @module
 */
import { FencedError } from "../../src/core/errors.ts";
import type { NamespaceView } from "../../src/state/namespace_view.ts";
import type { Fence, Store } from "../../src/store/mod.ts";

/** The fence of the namespace's current leader, as this instance's cache shows it. */
function currentFence(view: NamespaceView): Fence {
  const leader = view.leader;
  if (leader === undefined) {
    throw new Error(`Namespace ${JSON.stringify(view.namespace)} has no leader yet`);
  }
  return { namespace: view.namespace, claim: leader.claim, revision: leader.revision };
}

/** Tries `write` a few times while a leader's own write races it. */
async function retryFenced<T>(
  view: () => NamespaceView,
  write: (view: NamespaceView) => Promise<T>,
  wait: () => Promise<void>,
): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await write(view());
    } catch (error) {
      if (!(error instanceof FencedError) || attempt === 200) throw error;
      await wait();
    }
  }
}

/**
 * Commits one assignment change giving each executor the shards listed for
 * it; resolves with the store revision of the change.
 */
export function commitAssignment(
  store: Store,
  view: () => NamespaceView,
  assign: Readonly<Record<string, readonly string[]>>,
  wait: () => Promise<void>,
): Promise<number> {
  return retryFenced(view, (v) =>
    store.commitAssignment(currentFence(v), v.seq + 1, {
      assign,
      unassign: [],
      remove: [],
    }), wait);
}

/**
 * Deletes an executor's record (if no heartbeat changed it since `view`
 * showed it): the leader then treats its shards as lost and moves them.
 */
export async function forgetExecutor(
  store: Store,
  view: () => NamespaceView,
  executorId: string,
  wait: () => Promise<void>,
): Promise<void> {
  await retryFenced(view, async (v) => {
    const executor = v.executor(executorId);
    if (executor === undefined) return;
    await store.removeExecutors(currentFence(v), [
      { id: executorId, revision: executor.heartbeatRevision },
    ]);
  }, wait);
}
