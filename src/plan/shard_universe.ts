/**
 * The shards a pass must place and the executors it may place them on.
 *
 * @module
 */
import { indexKeys } from "../core/index_keys.ts";
import type { PlanInput } from "./plan_input.ts";
import type { ShardUniverse } from "./plan_policy.ts";

/**
 * The shard keys "0".."n-1" of a fixed namespace: the process's shared
 * strings, built once (`core/index_keys.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fixedShardKeys } from "./shard_universe.ts";
 *
 * assert.deepEqual(fixedShardKeys(3), ["0", "1", "2"]);
 * assert.equal(fixedShardKeys(3), fixedShardKeys(3));
 * ```
 */
export function fixedShardKeys(n: number): readonly string[] {
  return indexKeys(n);
}

/** Every shard key of the namespace: all of a fixed one, the owned and asked-for of an ephemeral one. */
export function universeKeys(input: PlanInput, universe: ShardUniverse): readonly string[] {
  return universe.kind === "fixed"
    ? fixedShardKeys(universe.shardNum)
    : [...new Set([...input.owners.keys(), ...input.requested.keys()])];
}

/** Owned shards whose owner reported them DONE: removed by the pass. */
export function finishedShards(input: PlanInput): Set<string> {
  const done = new Set<string>();
  for (const [shard, owner] of input.owners) {
    if (input.executors.get(owner)?.reports.get(shard)?.status === "DONE") done.add(shard);
  }
  return done;
}

/**
 * Shards that stay where they are, out of the planner's reach (undefined when
 * there are none): those owned by
 * a live executor whose status this server does not know (`UNKNOWN`) and that
 * no operator drain holds. Such an executor gets nothing new (it is not
 * eligible) but keeps what it has until it is stale, the most conservative
 * reading of a status whose meaning is unknown. In a replicated namespace the
 * whole owner set of such a shard is kept. A shard already releasing is not
 * kept, so that its handover can finish.
 */
export function keptShards(input: PlanInput): ((shard: string) => boolean) | undefined {
  const holders = new Set<string>();
  for (const e of input.executors.values()) {
    if (e.status === "UNKNOWN" && e.alive && !e.operatorDrained) holders.add(e.executorId);
  }
  if (holders.size === 0) return undefined;
  return (shard) => {
    if (input.releasing.has(shard)) return false;
    const set = input.ownerSets.get(shard);
    if (set !== undefined) return set.some((owner) => holders.has(owner));
    const owner = input.owners.get(shard);
    return owner !== undefined && holders.has(owner);
  };
}

/** The shards a pass places. */
export interface ShardsToPlace {
  /** Their keys (never modify: it may be the process's shared keys). */
  readonly shards: readonly string[];
  /** A fixed namespace's: the number of each (`shards[i]` is shard `numbers[i]`), increasing. */
  readonly numbers?: Int32Array;
  /** The finished shards (ephemeral namespaces only). */
  readonly done: Set<string>;
}

/**
 * The shards a pass must place (drained, finished and kept ones left out)
 * and the finished ones (ephemeral namespaces only). With nothing left out,
 * a fixed namespace's list is the shared keys themselves.
 */
export function shardsToPlace(input: PlanInput, universe: ShardUniverse): ShardsToPlace {
  const done = universe.kind === "ephemeral" ? finishedShards(input) : new Set<string>();
  const kept = keptShards(input);
  const out = (s: string) => input.drained.has(s) || done.has(s) || kept?.(s) === true;
  if (universe.kind !== "fixed") {
    return { shards: universeKeys(input, universe).filter((s) => !out(s)), done };
  }
  const keys = fixedShardKeys(universe.shardNum);
  if (input.drained.size === 0 && kept === undefined) {
    const numbers = new Int32Array(keys.length);
    for (let i = 0; i < numbers.length; i++) numbers[i] = i;
    return { shards: keys, numbers, done };
  }
  const shards: string[] = [];
  const numbers: number[] = [];
  for (const [i, key] of keys.entries()) {
    if (out(key)) continue;
    shards.push(key);
    numbers.push(i);
  }
  return { shards, numbers: Int32Array.from(numbers), done };
}

/** Executors that may take shards: ACTIVE, alive, not drained by an operator; sorted by id. */
export function eligibleExecutors(input: PlanInput): string[] {
  const eligible: string[] = [];
  for (const e of input.executors.values()) {
    if (e.status === "ACTIVE" && e.alive && !e.operatorDrained) eligible.push(e.executorId);
  }
  return eligible.sort();
}
