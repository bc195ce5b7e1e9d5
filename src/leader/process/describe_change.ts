/**
 * A change as operators read it in the logs: how many shards each executor
 * gave up and why, computed from the state before the change is applied.
 *
 * @module
 */
import type { AssignmentDelta } from "../../core/types.ts";
import type { NamespaceView } from "../../state/namespace_view.ts";

/** Why an executor gave shards up. */
export type ReleaseReason =
  | "stale"
  | "draining"
  | "drained"
  | "operator_drain"
  | "gone"
  | "rebalance";

/** Shards one executor gives up in a change. */
export interface Release {
  /** The executor. */
  readonly executorId: string;
  /** Shards it loses. */
  readonly shards: number;
  /** Why. */
  readonly reason: ReleaseReason;
}

/** Executors that lose shards in `delta`, most shards first. */
export function describeReleases(
  state: NamespaceView,
  delta: AssignmentDelta,
  now: number,
): Release[] {
  const lost = new Map<string, number>();
  const count = (shard: string, next?: string) => {
    const owner = state.ownerOf(shard);
    if (owner !== undefined && owner !== next) lost.set(owner, (lost.get(owner) ?? 0) + 1);
  };
  for (const [executor, shards] of Object.entries(delta.assign)) {
    for (const shard of shards) count(shard, executor);
  }
  for (const shard of delta.unassign) count(shard);
  const releases: Release[] = [];
  for (const [executorId, shards] of lost) {
    const e = state.executor(executorId);
    const reason: ReleaseReason = !e
      ? "gone"
      : !state.isAlive(e, now)
      ? "stale"
      : e.status === "DRAINING"
      ? "draining"
      : e.status === "DRAINED"
      ? "drained"
      : state.isExecutorDrained(e)
      ? "operator_drain"
      : "rebalance";
    releases.push({ executorId, shards, reason });
  }
  return releases.sort((a, b) => b.shards - a.shards || (a.executorId < b.executorId ? -1 : 1));
}
