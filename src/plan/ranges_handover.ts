/**
 * Exclusive ownership in a key-range namespace: the owners the range planner
 * wants, turned into the owners a pass may commit, so that no key is ever
 * served by two executors at once. A slice that changes owner goes through
 * the same handover as a fixed shard (`handovers.ts`: its owner is asked to
 * release it, and it moves once the owner confirmed it stopped or its lease
 * expired); a slice new in this pass (split off, or isolated for a hot key)
 * starts on the owner of the keys it covers, and moves by a handover in a
 * later pass if the planner still wants it elsewhere. The planner itself
 * never merges slices of different owners in an exclusive namespace. Pure.
 *
 * @module
 */
import type { SliceMap } from "../core/slices.ts";
import type { Handovers } from "./handovers.ts";
import type { ExecutorAt } from "./plan.ts";
import type { PlanInput } from "./plan_input.ts";
import { parentOwners } from "./ranges_parent_owners.ts";
import type { RangeSliceState } from "./ranges/types.ts";

/** The owners a pass of an exclusive range namespace commits, and what the commit relies on. */
export interface RangeHandovers {
  /** Slice id → its owner after the pass (one at most). */
  readonly owners: ReadonlyMap<number, readonly string[]>;
  /** Released slices that end on their owner again: assigned afresh (a new fencing token). */
  readonly fresh: ReadonlySet<string>;
  /** Slices whose owner is asked to release them (`AssignmentDelta.release`). */
  readonly release: readonly string[];
  /** Executors whose lease expiry the commit relies on. */
  readonly reliedOn: readonly ExecutorAt[];
  /** When a waiting handover can go on (a lease expiry), monotonic ms. */
  readonly wakeAtMs?: number;
}

/**
 * The owners of `planned` an exclusive pass may commit, given `input` (its
 * owners, releases and executors) and `before`, the slice map the pass
 * started from (whose owners own the keys until a handover ends); each
 * slice's step is taken by the pass's `handovers`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SliceMap } from "../core/slices.ts";
 * import { Handovers } from "./handovers.ts";
 * import { rangeHandovers } from "./ranges_handover.ts";
 *
 * const map = SliceMap.initial(1);
 * const executors = new Map([["a", { alive: true, seenAtMs: 0, reports: new Map([["0", {}]]) }]]);
 * const input = { now: 0, owners: new Map([["0", "a"]]), releasing: new Map(), executors } as never;
 * const planned = [{ slice: map.slices[0]!, owners: ["b"], load: 1 }];
 * const handovers = new Handovers(input, { leaseMs: 2_000, maxReliedOn: 10 });
 * const out = rangeHandovers(input, map, planned, handovers);
 * assert.deepEqual(out.release, ["0"]); // a is asked to stop first
 * assert.deepEqual(out.owners.get(0), ["a"]);
 * ```
 */
export function rangeHandovers(
  input: PlanInput,
  before: SliceMap | undefined,
  planned: readonly RangeSliceState[],
  handovers: Handovers,
): RangeHandovers {
  const owners = new Map<number, readonly string[]>();
  const release: string[] = [];
  const fresh = new Set<string>();
  for (const s of planned) {
    const key = String(s.slice.id);
    const next = s.owners[0];
    // A new slice's keys belong to the owner of the slice they were cut from, until a handover.
    const parent = parentOwners(input, before, s.slice);
    const current = parent ? parent[0] : input.owners.get(key);
    if (
      parent && current !== undefined && (next === current || !handovers.guard.expired(current))
    ) {
      owners.set(s.slice.id, [current]);
      continue;
    }
    const step = handovers.step(key, current, next);
    if (step === "release") release.push(key);
    if (step === "move" && next !== undefined && next === current) fresh.add(key);
    const owner = step === "move" ? next : current;
    owners.set(s.slice.id, owner === undefined ? [] : [owner]);
  }
  return {
    owners,
    fresh,
    release,
    reliedOn: handovers.reliedOn,
    ...(handovers.wakeAtMs === undefined ? {} : { wakeAtMs: handovers.wakeAtMs }),
  };
}
