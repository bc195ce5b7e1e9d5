/**
 * Which executors an assignment change concerns: the ones whose heartbeat
 * answer it changes (shards gained or lost, a new fencing token, a release).
 * Read from the change itself and the owners before it, so its cost is the
 * size of the change, never the size of the namespace: executor hints
 * (`routing/assignment_hints.ts`) reach only these.
 *
 * @module
 */
import type { AssignmentDelta } from "../core/types.ts";
import type { OwnerTable } from "./owner_index.ts";
import type { Preparing } from "../core/assignment.ts";

/**
 * Adds to `out` every executor whose assignment `delta` changes, given the
 * owners `before` it is applied: each executor `delta.assign` lists (and every
 * member of a new owner set), and every previous owner of a shard it assigns,
 * unassigns, removes or releases.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OwnerIndex } from "./owner_index.ts";
 * import { addTouchedExecutors } from "./assignment_touches.ts";
 *
 * const before = new OwnerIndex();
 * before.setOwner("0", "a", 1);
 * before.setOwner("1", "b", 1);
 * before.setOwner("2", "c", 1);
 * const out = new Set<string>();
 * addTouchedExecutors({ assign: { d: ["0"] }, unassign: [], remove: [] }, before, out);
 * assert.deepEqual([...out].sort(), ["a", "d"]); // b and c are not told
 * ```
 */
export function addTouchedExecutors(
  delta: AssignmentDelta,
  before: Pick<OwnerTable, "ownersOf">,
  out: Set<string>,
  preparing?: ReadonlyMap<string, Preparing>,
): void {
  const previous = (shard: string) => {
    for (const owner of before.ownersOf(shard)) out.add(owner);
  };
  for (const shard of delta.unassign) previous(shard);
  for (const shard of delta.remove) previous(shard);
  for (const shard of delta.release ?? []) previous(shard);
  for (const [executor, shards] of Object.entries(delta.assign)) {
    out.add(executor);
    for (const shard of shards) previous(shard);
  }
  for (const set of Object.values(delta.sets ?? {})) {
    for (const owner of set) out.add(owner);
  }
  // Warm handovers: the incoming owner is told to prepare, and told when that ends.
  for (const executor of Object.keys(delta.prepare ?? {})) out.add(executor);
  if (preparing !== undefined && preparing.size > 0) {
    const incoming = (shard: string) => {
      const entry = preparing.get(shard);
      if (entry !== undefined) out.add(entry.executor);
    };
    for (const shard of delta.unprepare ?? []) incoming(shard);
    for (const shard of delta.unassign) incoming(shard);
    for (const shard of delta.remove) incoming(shard);
    for (const shards of Object.values(delta.assign)) for (const shard of shards) incoming(shard);
  }
}
