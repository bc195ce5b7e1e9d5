/**
 * One update from the stream applied to the spectator's placement: the next
 * placement, what changed, and whether anything did (so the spectator
 * publishes only real changes). Pure: the spectator swaps the result in.
 *
 * @module
 */
import { applyDelta } from "./apply_delta.ts";
import { diffPlacements, isEmptyChange } from "./diff.ts";
import { applyUpdate } from "./placement.ts";
import type { ChangeSet, Placement, PlacementUpdate } from "./types.ts";

/** What {@linkcode nextPlacement} returns. */
export interface NextPlacement {
  /** The placement after the update. */
  readonly placement: Placement;
  /** What changed from the previous placement. */
  readonly change: ChangeSet;
  /**
   * True when there was no placement before, or a shard, an owner, an
   * executor's metadata or an owner set changed: the update is worth
   * publishing.
   */
  readonly changed: boolean;
}

/**
 * Applies `update`, received at `nowMs`, to `previous`. A delta applies to
 * the previous placement unless it is the first message of a stream (which
 * the service always sends whole); a snapshot replaces it and is diffed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nextPlacement } from "./next_placement.ts";
 *
 * const snapshot = {
 *   kind: "snapshot" as const,
 *   executors: [{ executorId: "a", metadata: { address: "a:80" }, shards: ["1"] }],
 * };
 * const first = nextPlacement(undefined, snapshot, true, 1_000);
 * assert.equal(first.changed, true);
 * assert.equal(first.placement.owners.get("1")?.executorId, "a");
 * const again = nextPlacement(first.placement, snapshot, true, 2_000);
 * assert.equal(again.changed, false); // the same snapshot after a reconnect
 * ```
 */
export function nextPlacement(
  previous: Placement | undefined,
  update: PlacementUpdate,
  first: boolean,
  nowMs: number,
): NextPlacement {
  let placement: Placement, change: ChangeSet;
  if (update.kind === "delta" && previous && !first) {
    ({ placement, change } = applyDelta(previous, update, previous.version + 1, nowMs));
  } else {
    placement = applyUpdate(previous, update, nowMs);
    change = diffPlacements(previous, placement);
  }
  const changed = previous === undefined || !isEmptyChange(change) ||
    !sameOwnerSets(previous, placement);
  return { placement, change, changed };
}

/** True when two placements give every shard the same owner set. */
function sameOwnerSets(a: Placement, b: Placement): boolean {
  if (a.ownerSets === b.ownerSets) return true;
  if (a.ownerSets.size !== b.ownerSets.size) return false;
  for (const [shard, set] of a.ownerSets) {
    const other = b.ownerSets.get(shard);
    if (other === undefined || other.length !== set.length) return false;
    if (set.some((id, i) => id !== other[i])) return false;
  }
  return true;
}
