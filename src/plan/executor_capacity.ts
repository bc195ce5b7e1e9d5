/**
 * The limits of each eligible executor in one pass (capacity_clamp.ts
 * applies them): the namespace's `executorCapacity`, replaced field by field
 * by what an executor declares in its heartbeat (`sm.capacity.*` metadata,
 * shared/capacity.ts), and the report cap. While the mass-loss brake holds, an
 * executor with no shard capacity may take at most twice its fair share of
 * the fleet before the loss (`2 × ceil(shards / executorsBefore)`, the
 * `BRAKE_SHARE_FACTOR`): survivors sized for their share may double their
 * load, never take all of the lost executors' shares. Pure.
 *
 * @module
 */
import { type Capacity, capacityFromMetadata } from "../shared/capacity.ts";
import type { ExecutorLimits } from "./capacity_clamp.ts";
import type { PlanInput } from "./plan_input.ts";

export type { Capacity } from "../shared/capacity.ts";

/**
 * While the mass-loss brake holds, an executor with no capacity set takes at
 * most this many times its share of the fleet before the loss.
 */
export const BRAKE_SHARE_FACTOR = 2;

/** What the limits are computed from besides the executors. */
export interface LimitSources {
  /** The namespace's capacity per executor; absent: none. */
  readonly capacity?: Capacity;
  /** The report cap (`limits.maxShardReportsPerHeartbeat`); absent: none. */
  readonly reportCap?: number;
  /** Shards the pass must own (for the brake's fair share). */
  readonly shards: number;
}

/**
 * The limits of `eligible` (executor ids, in the pass's index order), or
 * undefined when no executor has any limit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { executorLimits } from "./executor_capacity.ts";
 * import type { PlanExecutor, PlanInput } from "./plan_input.ts";
 *
 * const executor = (id: string, metadata: Record<string, string>) =>
 *   [id, { executorId: id, metadata } as unknown as PlanExecutor] as const;
 * const input = {
 *   executors: new Map([executor("a", {}), executor("b", { "sm.capacity.shards": "3" })]),
 * } as unknown as PlanInput;
 * const limits = executorLimits(input, ["a", "b"], { capacity: { shards: 5 }, shards: 8 });
 * assert.deepEqual(Array.from(limits!.shards), [5, 3]);
 * assert.equal(executorLimits(input, ["a"], { shards: 8 }), undefined);
 * ```
 */
export function executorLimits(
  input: PlanInput,
  eligible: readonly string[],
  sources: LimitSources,
): ExecutorLimits | undefined {
  const brake = input.brake;
  const fairShare = brake
    ? BRAKE_SHARE_FACTOR * Math.ceil(sources.shards / Math.max(1, brake.executorsBefore))
    : undefined;
  const shards = new Float64Array(eligible.length);
  const load = new Float64Array(eligible.length);
  let anyShards = false;
  let anyLoad = false;
  for (let i = 0; i < eligible.length; i++) {
    const metadata = input.executors.get(eligible[i]!)?.metadata ?? {};
    const declared = capacityFromMetadata(metadata);
    const shardCap = declared.shards ?? sources.capacity?.shards ?? fairShare ?? Infinity;
    const loadCap = declared.load ?? sources.capacity?.load ?? Infinity;
    shards[i] = Math.min(shardCap, sources.reportCap ?? Infinity);
    load[i] = loadCap;
    anyShards ||= shards[i] !== Infinity;
    anyLoad ||= loadCap !== Infinity;
  }
  if (!anyShards && !anyLoad) return undefined;
  return anyLoad ? { shards, load } : { shards };
}
