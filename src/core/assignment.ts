/**
 * Applying assignment changes to a plain shard → owner map.
 *
 * @module
 */
import type { AssignmentDelta } from "./types.ts";

/**
 * Applies `delta` to `owners` (shard → primary) in place; `onAssigned` sees
 * every shard that got an owner (or a new owner set). With `ownerSets`, the
 * full sets of shards with more than one owner are kept there too (see
 * `AssignmentDelta.sets`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyDelta } from "./assignment.ts";
 * const owners = new Map([["0", "a"]]);
 * applyDelta(owners, { assign: { b: ["0"] }, unassign: [], remove: [] });
 * assert.equal(owners.get("0"), "b");
 * ```
 */
export function applyDelta(
  owners: Map<string, string>,
  delta: AssignmentDelta,
  onAssigned?: (shard: string) => void,
  ownerSets?: Map<string, readonly string[]>,
): void {
  for (const shard of delta.unassign) owners.delete(shard), ownerSets?.delete(shard);
  for (const shard of delta.remove) owners.delete(shard), ownerSets?.delete(shard);
  const sets = delta.sets;
  for (const [executor, shards] of Object.entries(delta.assign)) {
    for (const shard of shards) {
      owners.set(shard, executor);
      if (ownerSets) {
        const set = sets?.[shard];
        if (set !== undefined && set.length > 1) ownerSets.set(shard, set);
        else ownerSets.delete(shard);
      }
      onAssigned?.(shard);
    }
  }
}

/**
 * The owners of `shard`, primary first: its set when it has several, else its
 * one owner, else none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownersOf } from "./assignment.ts";
 * const owners = new Map([["0", "a"], ["1", "b"]]);
 * const sets = new Map([["1", ["b", "c"]]]);
 * assert.equal(ownersOf(owners, sets, "1").length, 2);
 * assert.equal(ownersOf(owners, sets, "0")[0], "a");
 * ```
 */
export function ownersOf(
  owners: ReadonlyMap<string, string>,
  ownerSets: ReadonlyMap<string, readonly string[]> | undefined,
  shard: string,
): readonly string[] {
  const set = ownerSets?.get(shard);
  if (set !== undefined) return set;
  const owner = owners.get(shard);
  return owner === undefined ? [] : [owner];
}

/**
 * Keeps `releasing` (shard → store revision of the change that asked its owner
 * to stop it) in step with `delta`, committed at `revision`: a shard that gets
 * a new owner, loses its owner or is removed is no longer releasing; a released
 * shard that has an owner in `owners` (after the delta) is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyReleases } from "./assignment.ts";
 * const releasing = new Map<string, number>();
 * const owners = new Map([["0", "a"]]);
 * applyReleases(releasing, owners, { assign: {}, unassign: [], remove: [], release: ["0"] }, 7);
 * assert.equal(releasing.get("0"), 7);
 * ```
 */
export function applyReleases(
  releasing: Map<string, number>,
  owners: ReadonlyMap<string, string>,
  delta: AssignmentDelta,
  revision: number,
): void {
  if (releasing.size > 0) {
    for (const shard of delta.unassign) releasing.delete(shard);
    for (const shard of delta.remove) releasing.delete(shard);
    for (const shards of Object.values(delta.assign)) {
      for (const shard of shards) releasing.delete(shard);
    }
  }
  for (const shard of delta.release ?? []) {
    if (owners.has(shard)) releasing.set(shard, revision);
  }
}

/** A shard's warm handover in flight: the incoming owner and the revision of its prepare. */
export interface Preparing {
  /** The executor preparing the shard (the incoming owner). */
  readonly executor: string;
  /** Store revision of the change that asked it to prepare: its fencing token after the switch. */
  readonly revision: number;
}

/**
 * Keeps `preparing` (shard → its warm handover in flight) in step with
 * `delta`, committed at `revision`: a shard that gets an owner (the switch,
 * or any other move), loses its owner, is removed, or whose prepare is
 * cancelled is no longer preparing; a shard in `prepare` that has an owner in
 * `owners` (after the delta) is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyPrepares, type Preparing } from "./assignment.ts";
 * const preparing = new Map<string, Preparing>();
 * const owners = new Map([["0", "a"]]);
 * applyPrepares(preparing, owners, { assign: {}, unassign: [], remove: [], prepare: { b: ["0"] } }, 9);
 * assert.deepEqual(preparing.get("0"), { executor: "b", revision: 9 });
 * applyPrepares(preparing, owners, { assign: { b: ["0"] }, unassign: [], remove: [] }, 12);
 * assert.equal(preparing.size, 0);
 * ```
 */
export function applyPrepares(
  preparing: Map<string, Preparing>,
  owners: ReadonlyMap<string, string>,
  delta: AssignmentDelta,
  revision: number,
): void {
  if (preparing.size > 0) {
    for (const shard of delta.unassign) preparing.delete(shard);
    for (const shard of delta.remove) preparing.delete(shard);
    for (const shard of delta.unprepare ?? []) preparing.delete(shard);
    for (const shards of Object.values(delta.assign)) {
      for (const shard of shards) preparing.delete(shard);
    }
  }
  for (const [executor, shards] of Object.entries(delta.prepare ?? {})) {
    for (const shard of shards) {
      if (owners.has(shard) && owners.get(shard) !== executor) {
        preparing.set(shard, { executor, revision });
      }
    }
  }
}

/**
 * The fencing token `shard` gets from `delta`, committed at `revision`: the
 * change's revision, or the token a warm switch keeps (`delta.tokens`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokenOf } from "./assignment.ts";
 * const delta = { assign: { b: ["0", "1"] }, unassign: [], remove: [], tokens: { "0": 9 } };
 * assert.equal(tokenOf(delta, "0", 12), 9);
 * assert.equal(tokenOf(delta, "1", 12), 12);
 * ```
 */
export function tokenOf(delta: AssignmentDelta, shard: string, revision: number): number {
  const token = delta.tokens?.[shard];
  return token !== undefined && token > 0 && token < revision ? token : revision;
}

/** An assignment as a store replays its log into plain maps. */
export interface ReplayedAssignment {
  /** Shard → owner (primary). */
  readonly owners: Map<string, string>;
  /** Shard → fencing token. */
  readonly revisions: Map<string, number>;
  /** Shard → owner set, for shards with several owners. */
  readonly ownerSets: Map<string, readonly string[]>;
  /** Releasing shards → revision of their release. */
  readonly releasing: Map<string, number>;
  /** Warm handovers in flight. */
  readonly preparing: Map<string, Preparing>;
}

/**
 * Applies `delta`, committed at `revision`, to a replayed assignment: owners
 * with their fencing tokens, releases and prepares (the same rules as the
 * state's tables, for stores that rebuild a namespace from its log).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { replayDelta } from "./assignment.ts";
 * const t = {
 *   owners: new Map<string, string>(),
 *   revisions: new Map<string, number>(),
 *   ownerSets: new Map<string, readonly string[]>(),
 *   releasing: new Map<string, number>(),
 *   preparing: new Map(),
 * };
 * replayDelta(t, { assign: { a: ["0"] }, unassign: [], remove: [] }, 5);
 * replayDelta(t, { assign: {}, unassign: [], remove: [], prepare: { b: ["0"] } }, 6);
 * replayDelta(t, { assign: { b: ["0"] }, unassign: [], remove: [], tokens: { "0": 6 } }, 9);
 * assert.equal(t.owners.get("0"), "b");
 * assert.equal(t.revisions.get("0"), 6);
 * assert.equal(t.preparing.size, 0);
 * ```
 */
export function replayDelta(
  t: ReplayedAssignment,
  delta: AssignmentDelta,
  revision: number,
): void {
  applyDelta(
    t.owners,
    delta,
    (shard) => t.revisions.set(shard, tokenOf(delta, shard, revision)),
    t.ownerSets,
  );
  applyReleases(t.releasing, t.owners, delta, revision);
  applyPrepares(t.preparing, t.owners, delta, revision);
}
