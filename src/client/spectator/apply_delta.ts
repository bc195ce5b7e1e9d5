/**
 * Applying a delta from the service to a placement: only the executors and
 * shards it names are touched, and the change is read off the delta instead
 * of diffing whole placements, so a one-shard move costs work proportional to
 * the move (plus one copy of the owner map, done natively).
 *
 * @module
 */
import { sameMetadata } from "./diff.ts";
import { frozenMetadata } from "./frozen_metadata.ts";
import type {
  ChangeSet,
  ExecutorPlacement,
  Owner,
  Placement,
  PlacementDelta,
  ShardMove,
} from "./types.ts";

/**
 * The placement after `delta`, numbered `version`, and what changed.
 * `previous` is left untouched.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyUpdate } from "./placement.ts";
 * import { applyDelta } from "./apply_delta.ts";
 *
 * const before = applyUpdate(undefined, {
 *   kind: "snapshot",
 *   executors: [
 *     { executorId: "a", metadata: {}, shards: ["0", "1"] },
 *     { executorId: "b", metadata: {}, shards: [] },
 *   ],
 * }, 0);
 * const { placement, change } = applyDelta(before, {
 *   kind: "delta",
 *   executors: [],
 *   owners: [{ shard: "1", owner: "b" }],
 *   removedExecutors: [],
 * }, 2, 1);
 * assert.equal(placement.owners.get("1")?.executorId, "b");
 * assert.equal(change.moved[0]?.from, "a");
 * ```
 */
export function applyDelta(
  previous: Placement,
  delta: PlacementDelta,
  version: number,
  receivedAtMs: number,
): { placement: Placement; change: ChangeSet } {
  const executors = new Map(previous.executors);
  const owners = new Map<string, Owner>(previous.owners);
  const metadata = new Map<string, Readonly<Record<string, string>>>();
  const shards = new Map<string, Set<string>>();
  const shardsOf = (id: string) => {
    let set = shards.get(id);
    if (!set) shards.set(id, set = new Set(previous.executors.get(id)?.shards ?? []));
    return set;
  };
  const executorsChanged: string[] = [];
  for (const { executorId, metadata: next } of delta.executors) {
    const was = previous.executors.get(executorId);
    if (!was || !sameMetadata(was.metadata, next)) executorsChanged.push(executorId);
    metadata.set(executorId, next);
    shardsOf(executorId);
  }
  const added: string[] = [], removed: string[] = [], moved: ShardMove[] = [];
  let ownerSets = previous.ownerSets;
  for (const { shard, owner, owners: set } of delta.owners) {
    const several = set !== undefined && set.length > 1 && owner !== undefined;
    if (several || ownerSets.has(shard)) {
      if (ownerSets === previous.ownerSets) ownerSets = new Map(previous.ownerSets);
      const sets = ownerSets as Map<string, readonly string[]>;
      if (several) sets.set(shard, Object.freeze([...set]));
      else sets.delete(shard);
    }
    const was = owners.get(shard)?.executorId;
    if (was === owner) continue;
    if (was !== undefined) shardsOf(was).delete(shard);
    if (owner !== undefined) shardsOf(owner).add(shard);
    if (was === undefined && owner !== undefined) added.push(shard);
    else if (owner === undefined) removed.push(shard);
    else moved.push({ shard, from: was!, to: owner });
    if (owner === undefined) owners.delete(shard);
  }
  for (const [id, set] of shards) {
    const executor: ExecutorPlacement = Object.freeze({
      executorId: id,
      metadata: metadata.has(id)
        ? frozenMetadata(metadata.get(id)!)
        : previous.executors.get(id)?.metadata ?? frozenMetadata({}),
      shards: Object.freeze([...set]),
    });
    executors.set(id, executor);
    for (const shard of set) owners.set(shard, executor);
  }
  for (const id of delta.removedExecutors) {
    if (executors.delete(id)) executorsChanged.push(id);
  }
  return {
    placement: Object.freeze({ version, receivedAtMs, executors, owners, ownerSets }),
    change: { added, removed, moved, executorsChanged },
  };
}
