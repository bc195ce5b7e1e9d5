/**
 * What a drain would do, for `--dry-run`: one rebalance pass planned over the
 * namespace's current state with the drain in place, read as the shards that
 * leave the drained executors and where each goes.
 *
 * @module
 */
import { drainMatches, type ExecutorDrain } from "../core/executor_drain.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import { planInput, planPass } from "../plan/mod.ts";
import { compareShardKeys } from "../routing/mod.ts";

/** A shard that would move. */
export interface PlannedMove {
  /** Shard key. */
  readonly shardKey: string;
  /** Its owner now. */
  readonly from: string;
  /** Where it would go; empty when no executor could take it. */
  readonly to: string;
}

/** The shards `drain` would move off the executors it matches, at monotonic `now`. */
export function plannedDrainMoves(
  runtime: NamespaceRuntime,
  drain: ExecutorDrain,
  now: number,
): PlannedMove[] {
  const base = planInput(runtime.view, now);
  const executors = new Map(base.executors);
  const matched: string[] = [];
  for (const [id, e] of executors) {
    if (!drainMatches(drain, id, e.metadata)) continue;
    matched.push(id);
    executors.set(id, { ...e, operatorDrained: true });
  }
  const plan = planPass({ ...base, executors }, runtime.policy.placement);
  const to = new Map<string, string>();
  for (const [executorId, shards] of Object.entries(plan.delta.assign)) {
    for (const shard of shards) to.set(shard, executorId);
  }
  const moves: PlannedMove[] = [];
  for (const from of matched.sort()) {
    for (const shardKey of base.byExecutor.get(from) ?? []) {
      moves.push({ shardKey, from, to: to.get(shardKey) ?? "" });
    }
  }
  return moves.sort((a, b) => compareShardKeys(a.shardKey, b.shardKey));
}
