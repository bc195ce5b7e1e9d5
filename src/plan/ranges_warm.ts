/**
 * Warm handover of slice moves in an available key-range namespace: the
 * owners the range planner wants, turned into the steps of `warm_handovers.ts`.
 * A slice planned from A to B, where B understands warm handover, is first
 * prepared on B while A keeps serving it, and switched once B reports it
 * PREPARED (or cold, by the same rules as a fixed shard's: A lost, or the
 * prepare timed out for a move A must make). A slice being prepared keeps its
 * range until it is switched or the prepare is cancelled. A slice new in this
 * pass starts on the owner of the keys it covers when its planned owner would
 * prepare it, so that its move is prepared in a later pass too. Slices with
 * several owners (a replicated hot key) move cold. Pure.
 *
 * @module
 */
import type { SliceMap } from "../core/slices.ts";
import { ownersOf } from "./owner_tables.ts";
import type { PlanInput } from "./plan_input.ts";
import { parentOwners } from "./ranges_parent_owners.ts";
import type { RangeSliceState } from "./ranges/types.ts";
import type { WarmHandovers } from "./warm_handovers.ts";

/** The owners a pass commits with warm handover, and the prepares it asks for. */
export interface RangeWarmSteps {
  /** Slice id → its owners after the pass. */
  readonly owners: ReadonlyMap<number, readonly string[]>;
  /** Incoming owner → the slices it is asked to prepare (`AssignmentDelta.prepare`). */
  readonly prepare: Readonly<Record<string, string[]>>;
  /** Prepares cancelled (`AssignmentDelta.unprepare`). */
  readonly unprepare: readonly string[];
  /** Switched slices → the fencing token their prepare announced (`AssignmentDelta.tokens`). */
  readonly tokens: Readonly<Record<string, number>>;
  /** When a waiting prepare times out, monotonic ms. */
  readonly wakeAtMs?: number;
}

/**
 * The warm handover steps of `planned` (the planner's slices and owners),
 * from `input` and `before` (the slice map the pass started from); each
 * slice's step is taken by the pass's `warm` (which also counts them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SliceMap } from "../core/slices.ts";
 * import { rangeWarmSteps } from "./ranges_warm.ts";
 * import { WarmHandovers } from "./warm_handovers.ts";
 *
 * const map = SliceMap.initial(1);
 * const executors = new Map([
 *   ["a", { alive: true, reports: new Map() }],
 *   ["b", { alive: true, warmHandover: true, reports: new Map() }],
 * ]);
 * const input = {
 *   now: 0, owners: new Map([["0", "a"]]), ownerSets: new Map(), preparing: new Map(),
 *   preparingBy: new Map(), executors,
 * } as never;
 * const planned = [{ slice: map.slices[0]!, owners: ["b"], load: 1 }];
 * const warm = new WarmHandovers(input, { prepareTimeoutMs: 5_000, maxPreparesPerExecutor: 4 }, new Map([["a", 0], ["b", 1]]));
 * const steps = rangeWarmSteps(input, map, planned, warm);
 * assert.deepEqual(steps.prepare, { b: ["0"] }); // b prepares it while a serves it
 * assert.deepEqual(steps.owners.get(0), ["a"]);
 * ```
 */
export function rangeWarmSteps(
  input: PlanInput,
  before: SliceMap | undefined,
  planned: readonly RangeSliceState[],
  warm: WarmHandovers,
): RangeWarmSteps {
  const owners = new Map<number, readonly string[]>();
  const prepare: Record<string, string[]> = {};
  const unprepare: string[] = [];
  const tokens: Record<string, number> = {};
  for (const s of planned) {
    const key = String(s.slice.id);
    const entry = input.preparing.get(key);
    const current = ownersOf(input, key);
    if (entry) {
      const step = warm.step(key, entry, current[0]);
      if (step === "wait") {
        owners.set(s.slice.id, current);
      } else if (step === "cancel" || step === "timed-out") {
        unprepare.push(key), warm.count(key, step);
        owners.set(s.slice.id, current);
      } else {
        owners.set(s.slice.id, [entry.executor]);
        tokens[key] = entry.revision;
        warm.count(key, step);
      }
      continue;
    }
    const next = s.owners;
    // Cut from a slice this pass: its keys are its parent's owner's until a prepared move.
    const parent = parentOwners(input, before, s.slice);
    if (parent) {
      const wouldPrepare = next.length === 1 && parent.length === 1 && next[0] !== parent[0] &&
        input.executors.get(parent[0]!)?.alive === true &&
        input.executors.get(next[0]!)?.warmHandover === true;
      owners.set(s.slice.id, wouldPrepare ? parent : next);
      continue;
    }
    if (current.length === 1 && next.length === 1 && current[0] !== next[0]) {
      const start = warm.start(current[0], next[0]!);
      if (start === "prepare") (prepare[next[0]!] ??= []).push(key);
      owners.set(s.slice.id, start === "cold" ? next : current);
      continue;
    }
    owners.set(s.slice.id, next);
  }
  return {
    owners,
    prepare,
    unprepare,
    tokens,
    ...(warm.wakeAtMs === undefined ? {} : { wakeAtMs: warm.wakeAtMs }),
  };
}
