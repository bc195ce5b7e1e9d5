/**
 * Exclusive ownership in a key-range namespace: the owners the range planner
 * wants, turned into the owners a pass may commit, so that no key is ever
 * served by two executors at once. A slice that changes owner goes through
 * the same handover as a fixed shard (`handovers.ts`: its owner is asked to
 * release it, and it moves once the owner confirmed it stopped or its lease
 * expired); a slice new in this pass (split off, or isolated for a hot key)
 * starts on the owner of the keys it covers, and moves by a handover in a
 * later pass if the planner still wants it elsewhere. The planner itself
 * never merges slices of different owners in an exclusive namespace.
 *
 * With warm handover, a slice planned from A to B, where B understands it,
 * is first prepared on B while A keeps serving it (as in `ranges_warm.ts`);
 * once B reports it PREPARED the switch is a handover: A is asked to release
 * it, and B takes it, with the token its prepare announced, once A confirmed
 * it stopped or its lease expired. Pure.
 *
 * @module
 */
import type { SliceMap } from "../core/slices.ts";
import type { Handovers } from "./handovers.ts";
import type { ExecutorAt } from "./plan.ts";
import type { PlanInput } from "./plan_input.ts";
import { parentOwners } from "./ranges_parent_owners.ts";
import type { RangeSliceState } from "./ranges/types.ts";
import type { WarmHandovers } from "./warm_handovers.ts";

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
  /** With warm handover: incoming owner → the slices it is asked to prepare. */
  readonly prepare: Readonly<Record<string, string[]>>;
  /** With warm handover: prepares cancelled. */
  readonly unprepare: readonly string[];
  /** With warm handover: switched slices → the fencing token their prepare announced. */
  readonly tokens: Readonly<Record<string, number>>;
}

/**
 * The owners of `planned` an exclusive pass may commit, given `input` (its
 * owners, releases and executors) and `before`, the slice map the pass
 * started from (whose owners own the keys until a handover ends); each
 * slice's step is taken by the pass's `handovers`, and with `warm` a move
 * is prepared first.
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
 * const input = {
 *   now: 0, owners: new Map([["0", "a"]]), releasing: new Map(), preparing: new Map(), executors,
 * } as never;
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
  warm?: WarmHandovers,
): RangeHandovers {
  const owners = new Map<number, readonly string[]>();
  const release: string[] = [];
  const fresh = new Set<string>();
  const prepare: Record<string, string[]> = {};
  const unprepare: string[] = [];
  const tokens: Record<string, number> = {};
  const put = (s: RangeSliceState, owner: string | undefined) =>
    owners.set(s.slice.id, owner === undefined ? [] : [owner]);
  for (const s of planned) {
    const key = String(s.slice.id);
    const entry = input.preparing.get(key);
    if (entry) {
      // Being prepared (only with warm handover): wait, cancel, or switch by a handover.
      const current = input.owners.get(key);
      const step = warm ? warm.step(key, entry, current) : "cancel";
      if (step === "cancel" || step === "timed-out") {
        unprepare.push(key), warm?.count(key, step), put(s, current);
        continue;
      }
      const handover = step === "wait" ? "keep" : handovers.step(key, current, entry.executor);
      if (handover === "release") release.push(key);
      if (step === "wait" || handover !== "move") {
        put(s, current);
        continue;
      }
      put(s, entry.executor), tokens[key] = entry.revision, warm?.count(key, step);
      continue;
    }
    const next = s.owners[0];
    // A new slice's keys belong to the owner of the slice they were cut from, until a handover.
    const parent = parentOwners(input, before, s.slice);
    const current = parent ? parent[0] : input.owners.get(key);
    if (
      parent && current !== undefined && (next === current || !handovers.guard.expired(current))
    ) {
      put(s, current);
      continue;
    }
    if (
      warm && !parent && current !== undefined && next !== undefined && next !== current &&
      !input.releasing.has(key)
    ) {
      const start = warm.start(current, next);
      if (start === "prepare") (prepare[next] ??= []).push(key);
      if (start !== "cold") {
        put(s, current);
        continue;
      }
    }
    const step = handovers.step(key, current, next);
    if (step === "release") release.push(key);
    if (step === "move" && next !== undefined && next === current) fresh.add(key);
    put(s, step === "move" ? next : current);
  }
  return {
    owners,
    fresh,
    release,
    reliedOn: handovers.reliedOn,
    ...(handovers.wakeAtMs === undefined && warm?.wakeAtMs === undefined ? {} : {
      wakeAtMs: Math.min(handovers.wakeAtMs ?? Infinity, warm?.wakeAtMs ?? Infinity),
    }),
    prepare,
    unprepare,
    tokens,
  };
}
