/**
 * The shards a pass must place and the executors it may place them on.
 *
 * @module
 */
import type { PlanInput } from "./plan_input.ts";
import type { ShardUniverse } from "./plan_policy.ts";

const fixedKeys = new Map<number, readonly string[]>();

/**
 * The shard keys "0".."n-1" of a fixed namespace, built once per size.
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
  let keys = fixedKeys.get(n);
  if (!keys) {
    keys = Array.from({ length: n }, (_, i) => String(i));
    fixedKeys.clear();
    fixedKeys.set(n, keys);
  }
  return keys;
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
    if (input.executors.get(owner)?.reports[shard]?.status === "DONE") done.add(shard);
  }
  return done;
}

/**
 * The shards a pass must place (drained and finished ones left out) and the
 * finished ones (ephemeral namespaces only).
 */
export function shardsToPlace(
  input: PlanInput,
  universe: ShardUniverse,
): { readonly shards: string[]; readonly done: Set<string> } {
  const done = universe.kind === "ephemeral" ? finishedShards(input) : new Set<string>();
  const shards = universeKeys(input, universe).filter((s) => !input.drained.has(s) && !done.has(s));
  return { shards, done };
}

/** Executors that may take shards: ACTIVE, alive, not drained by an operator; sorted by id. */
export function eligibleExecutors(input: PlanInput): string[] {
  const eligible: string[] = [];
  for (const e of input.executors.values()) {
    if (e.status === "ACTIVE" && e.alive && !e.operatorDrained) eligible.push(e.executorId);
  }
  return eligible.sort();
}
