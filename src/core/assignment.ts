/**
 * Applying assignment changes to a plain shard → owner map.
 *
 * @module
 */
import type { AssignmentDelta } from "./types.ts";

/**
 * Applies `delta` to `owners` in place; `onAssigned` sees every shard that got an owner.
 *
 * @example
 * ```ts
 * import { applyDelta } from "./assignment.ts";
 * const owners = new Map([["0", "a"]]);
 * applyDelta(owners, { assign: { b: ["0"] }, unassign: [], remove: [] });
 * console.assert(owners.get("0") === "b");
 * ```
 */
export function applyDelta(
  owners: Map<string, string>,
  delta: AssignmentDelta,
  onAssigned?: (shard: string) => void,
): void {
  for (const shard of delta.unassign) owners.delete(shard);
  for (const shard of delta.remove) owners.delete(shard);
  for (const [executor, shards] of Object.entries(delta.assign)) {
    for (const shard of shards) {
      owners.set(shard, executor);
      onAssigned?.(shard);
    }
  }
}
