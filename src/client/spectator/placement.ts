/**
 * Applying an update to a placement: the one place where the shard → owner
 * map is built. A new map is built off to the side and the caller swaps it in,
 * so lookups never see a half-applied update.
 *
 * @module
 */
import { applyDelta } from "./apply_delta.ts";
import { frozenMetadata } from "./frozen_metadata.ts";
import type { ExecutorPlacement, Owner, Placement, PlacementUpdate } from "./types.ts";

/**
 * The placement after `update`, numbered `previous.version + 1` (1 for the
 * first). `previous` is left untouched. Each executor becomes one frozen
 * object shared by all its shards, so lookups allocate nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyUpdate } from "./placement.ts";
 *
 * const placement = applyUpdate(undefined, {
 *   kind: "snapshot",
 *   executors: [{ executorId: "a", metadata: { address: "a:80" }, shards: ["0", "1"] }],
 * }, Date.now());
 * assert.equal(placement.owners.get("1")?.executorId, "a");
 * ```
 */
export function applyUpdate(
  previous: Placement | undefined,
  update: PlacementUpdate,
  receivedAtMs: number,
): Placement {
  const version = (previous?.version ?? 0) + 1;
  switch (update.kind) {
    case "snapshot":
      return fromSnapshot(update.executors, version, receivedAtMs);
    case "delta":
      if (!previous) throw new Error("a placement delta arrived before any snapshot");
      return applyDelta(previous, update, version, receivedAtMs).placement;
  }
}

function fromSnapshot(
  list: readonly ExecutorPlacement[],
  version: number,
  receivedAtMs: number,
): Placement {
  const executors = new Map<string, ExecutorPlacement>();
  const owners = new Map<string, Owner>();
  const ranked = new Map<string, { id: string; rank: number }[]>();
  for (const item of list) {
    const replicaShards = item.replicaShards ?? [];
    const executor: ExecutorPlacement = Object.freeze({
      executorId: item.executorId,
      metadata: frozenMetadata(item.metadata),
      shards: Object.freeze([...item.shards]),
      ...(replicaShards.length > 0
        ? { replicaShards: Object.freeze(replicaShards.map((r) => Object.freeze({ ...r }))) }
        : {}),
    });
    executors.set(executor.executorId, executor);
    for (const shard of executor.shards) owners.set(shard, executor);
    for (const { shard, rank } of replicaShards) {
      let members = ranked.get(shard);
      if (!members) ranked.set(shard, members = []);
      members.push({ id: item.executorId, rank });
    }
  }
  const ownerSets = new Map<string, readonly string[]>();
  for (const [shard, members] of ranked) {
    const primary = owners.get(shard)?.executorId;
    members.sort((a, b) => a.rank - b.rank);
    const ids = members.map((m) => m.id);
    ownerSets.set(shard, Object.freeze(primary === undefined ? ids : [primary, ...ids]));
  }
  return Object.freeze({ version, receivedAtMs, executors, owners, ownerSets });
}

/**
 * Every owner of `shardKey` in `placement`, primary first: its owner set in a
 * replicated namespace, else its one owner; empty when it has none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyUpdate, ownersIn } from "./placement.ts";
 *
 * const placement = applyUpdate(undefined, {
 *   kind: "snapshot",
 *   executors: [{ executorId: "a", metadata: {}, shards: ["0"] }],
 * }, Date.now());
 * assert.deepEqual(ownersIn(placement, "0").map((o) => o.executorId), ["a"]);
 * assert.deepEqual(ownersIn(placement, "9"), []);
 * ```
 */
export function ownersIn(placement: Placement, shardKey: string): readonly Owner[] {
  const ids = placement.ownerSets.get(shardKey);
  if (ids !== undefined) {
    const found: Owner[] = [];
    for (const id of ids) {
      const executor = placement.executors.get(id);
      if (executor !== undefined) found.push(executor);
    }
    if (found.length > 0) return found;
  }
  const one = placement.owners.get(shardKey);
  return one === undefined ? [] : [one];
}
