/**
 * Shards grouped by owner, in compressed form: the shards of executor `e` are
 * `members[start[e]] .. members[start[e + 1] - 1]`, in ascending shard order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { OwnerGroups } from "./_group_by_owner.ts";
 *
 * const groups: OwnerGroups = { start: Int32Array.of(0, 1, 2), members: Int32Array.of(1, 0) };
 * assert.equal(groups.members[groups.start[1]!], 0);
 * ```
 */
export interface OwnerGroups {
  /** Offset of each executor's first shard in `members`; has `executors + 1` entries. */
  readonly start: Int32Array;
  /** Shard indices, grouped by owner. */
  readonly members: Int32Array;
}

/**
 * Groups shards by owner with a counting sort in O(shards + executors).
 * Every owner must be a valid executor index (no -1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { groupByOwner } from "./_group_by_owner.ts";
 *
 * const { start, members } = groupByOwner(Int32Array.of(1, 0, 1), 2);
 * assert.deepEqual([...start], [0, 1, 3]);
 * assert.deepEqual([...members], [1, 0, 2]);
 * ```
 */
export function groupByOwner(owners: Int32Array, executors: number): OwnerGroups {
  const start = new Int32Array(executors + 1);
  for (let i = 0; i < owners.length; i++) start[owners[i]! + 1]!++;
  for (let e = 0; e < executors; e++) start[e + 1]! += start[e]!;
  const next = start.slice(0, executors);
  const members = new Int32Array(owners.length);
  for (let i = 0; i < owners.length; i++) members[next[owners[i]!]!++] = i;
  return { start, members };
}
