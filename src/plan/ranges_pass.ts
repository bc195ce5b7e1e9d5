/**
 * A pass of a key-range namespace (`type: range`): the range planner
 * (`ranges/plan_ranges.ts`) over the namespace's slice map, its owners and
 * the loads the executors report per slice, turned into the assignment
 * change the leader commits. A slice's id is its shard key; the change
 * carries the new slice map when a split, merge or isolation changed it, so
 * the map and the owners of its slices are committed together. Pure.
 *
 * @module
 */
import { type Slice, SliceMap } from "../core/slices.ts";
import { keyHash } from "../shared/key_hash.ts";
import { sliceMapText } from "../core/slice_map_codec.ts";
import type { AssignmentDelta, KeyLoad } from "../core/types.ts";
import { moveReason, noMoves } from "./churn_rules.ts";
import { cleanUp } from "./pass_cleanup.ts";
import type { Plan } from "./plan.ts";

export type { RangePassReport } from "./plan.ts";
import { ownersOf } from "./owner_tables.ts";
import type { PlanInput } from "./plan_input.ts";
import type { RangesPolicy } from "./plan_policy.ts";

export type { RangesPolicy } from "./plan_policy.ts";
import { planRanges } from "./ranges/plan_ranges.ts";
import type { RangePlan, RangeSliceState } from "./ranges/types.ts";
import { eligibleExecutors } from "./shard_universe.ts";
import type { SliceEditCounts } from "../core/observer.ts";
import { applySliceEdits, exclusiveMergeProblem } from "./slice_edits.ts";
import { rangeHandovers } from "./ranges_handover.ts";
import { rangeWarmSteps } from "./ranges_warm.ts";
import { hasHandovers, WarmHandovers } from "./warm_handovers.ts";
import type { HandoverGuard } from "./handover_guard.ts";
import { Handovers } from "./handovers.ts";

const NO_PINS: ReadonlySet<number> = new Set();
const NO_KEYS: ReadonlySet<string> = new Set();
const NO_SPLITS: ReadonlyMap<number, number> = new Map();
const NO_EDITS: SliceEditCounts = { split: 0, merge: 0, pin: 0, unpin: 0 };

/**
 * Plans a pass of a key-range namespace. The first pass of a namespace
 * (no slice map yet) cuts the line into `initialSlices` slices and places
 * them. While the mass-loss brake holds, no slice moves for balance (the
 * churn budget is 0); slices of lost executors are still placed again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RANGE_DEFAULTS } from "../config/range_settings.ts";
 * import { NamespaceState } from "../state/namespace_state.ts";
 * import { planInput } from "./plan_input.ts";
 * import { planRangesPass } from "./ranges_pass.ts";
 *
 * const state = new NamespaceState("keys", { heartbeatTtlMs: 2_000 });
 * state.apply({
 *   revision: 2,
 *   events: [{ type: "heartbeat", executorId: "e1", record: { status: "ACTIVE", timestampMs: 1 } }],
 * }, 0);
 * const plan = planRangesPass(planInput(state, 10), {
 *   kind: "ranges",
 *   settings: { ...RANGE_DEFAULTS, initialSlices: 4, slicesPerExecutor: { target: 4, min: 1, max: 8 } },
 *   zoneKey: "zone",
 *   executorRetentionMs: 60_000,
 * });
 * assert.deepEqual(plan.delta.assign, { e1: ["0", "1", "2", "3"] });
 * assert.equal(typeof plan.delta.slices, "string"); // the new slice map, committed with them
 * ```
 */
export function planRangesPass(input: PlanInput, policy: RangesPolicy): Plan {
  const map = input.slices;
  const pinsBefore = input.slicePins ?? NO_PINS;
  // Operator edits first (split, merge, pin by hand): the planner then plans around them.
  const { exclusive } = policy;
  // Exclusive: a merge by hand of slices with different owners would move a range without a
  // handover (refused when asked; skipped here if the owners changed since).
  const edits = exclusive
    ? input.sliceEdits?.filter((e) => exclusiveMergeProblem(e, input) === undefined)
    : input.sliceEdits;
  const edited = map && edits
    ? applySliceEdits(map, pinsBefore, edits)
    : { map, pins: pinsBefore, splitFrom: NO_SPLITS, applied: 0, made: NO_EDITS };
  const eligible = eligibleExecutors(input);
  const warmSettings = policy.warm;
  // Exclusive: the pass's handovers; their guard also answers handoverView (one guard a pass).
  const handovers = exclusive ? new Handovers(input, exclusive) : undefined;
  const planned = planRanges({
    slices: (edited.map?.slices ?? []).map((slice) =>
      handoverView(
        input,
        sliceState(input, slice, edited.pins.has(slice.id), edited.splitFrom.get(slice.id)),
        handovers?.guard,
        warmSettings !== undefined,
      )
    ),
    nextSliceId: edited.map?.nextId ?? 0,
    executors: eligible.map((id) => {
      const zone = input.executors.get(id)?.metadata[policy.zoneKey];
      return zone === undefined ? { id } : { id, zone };
    }),
    ownership: exclusive ? "exclusive" : "available",
  }, input.brake ? { ...policy.settings, churnBudget: 0 } : policy.settings);
  const next = SliceMap.from(planned.slices.map((s) => s.slice), planned.nextSliceId);
  const pins = new Set([...edited.pins].filter((id) => next.find(id) !== undefined));
  // Owner changes go through handovers when exclusive, through prepares when warm handover is on
  // (both from the map the pass started from).
  // Exclusive with warm handover: a move is prepared, then switched by a handover.
  const warm = warmSettings
    ? new WarmHandovers(input, warmSettings, new Map(eligible.map((id, i) => [id, i])))
    : undefined;
  const handed = handovers
    ? rangeHandovers(input, edited.map, planned.slices, handovers, warm)
    : undefined;
  const steps = handed ??
    (warm ? rangeWarmSteps(input, edited.map, planned.slices, warm) : undefined);
  const ownersAfter = (s: RangeSliceState) => steps?.owners.get(s.slice.id) ?? s.owners;
  const change = changeOf(
    input,
    planned,
    { map, pins: pinsBefore },
    { map: next, pins },
    ownersAfter,
    handed?.fresh ?? NO_KEYS,
  );
  const delta: AssignmentDelta = {
    ...change,
    ...(handed && handed.release.length > 0 ? { release: handed.release } : {}),
    ...(steps && Object.keys(steps.prepare).length > 0 ? { prepare: steps.prepare } : {}),
    ...(steps && steps.unprepare.length > 0 ? { unprepare: steps.unprepare } : {}),
    ...(steps && Object.keys(steps.tokens).length > 0 ? { tokens: steps.tokens } : {}),
  };
  const reasons = noMoves();
  const eligibleSet = new Set(eligible);
  for (const keys of Object.values(delta.assign)) {
    for (const key of keys) reasons[moveReason(input, eligibleSet, input.owners.get(key))]++;
  }
  const wakeAtMs = steps?.wakeAtMs;
  return {
    moves: planned.moves.length,
    reasons,
    ...cleanUp(input, policy.executorRetentionMs, delta, new Set()),
    reliedOn: handed?.reliedOn ?? [],
    ...(wakeAtMs === undefined ? {} : { wakeAtMs }),
    ...(warm && hasHandovers(warm.counts)
      ? { handovers: warm.counts, prepareMs: [...warm.prepareMs] }
      : {}),
    ranges: {
      splits: planned.splits.length,
      merges: planned.merges.length,
      isolations: planned.isolations.length,
      keyspaceMoved: planned.keyspaceMoved,
      slices: planned.slices.length,
      ...(edited.applied > 0 ? { byHand: edited.made } : {}),
    },
  };
}

/**
 * A slice in a handover as the planner must see it: when exclusive, a slice
 * being released keeps its range (locked), and once its owner confirmed it
 * stopped it is the planner's to place (not back on it, unless alone); with
 * warm handover, a slice being prepared keeps its range and counts as on its
 * incoming owner, so that balancing does not chase it.
 */
function handoverView(
  input: PlanInput,
  state: RangeSliceState,
  guard: HandoverGuard | undefined,
  warm: boolean,
): RangeSliceState {
  const key = String(state.slice.id);
  const preparing = warm ? input.preparing.get(key) : undefined;
  if (preparing) return { ...state, owners: [preparing.executor], locked: true };
  if (!guard || !input.releasing.has(key)) return state;
  const owner = input.owners.get(key);
  const stopped = owner !== undefined && guard.confirmedStopped(key, owner);
  return { ...state, locked: true, ...(stopped ? { owners: [] } : {}) };
}

/**
 * A slice as the planner sees it: its owners and the load and top keys they
 * report for it. A slice an operator split off this pass (`parent`) starts
 * with its parent's owners; a slice whose range an operator changed this
 * pass gets the load of the ranges it now covers (a share of a split one's,
 * by width; the sum of merged ones') and the top keys that fall in it.
 */
function sliceState(
  input: PlanInput,
  slice: Slice,
  pinned: boolean,
  parent: number | undefined,
): RangeSliceState {
  const key = String(parent ?? slice.id);
  const owners = ownersOf(input, key);
  const was = input.slices?.find(Number(key));
  const unchanged = was !== undefined && was.start === slice.start && was.end === slice.end;
  const keys = new Map<string, number>();
  let load = 0;
  for (const source of unchanged || !input.slices ? [slice] : overlapping(input.slices, slice)) {
    const reported = reportedLoad(input, String(source.id), keys);
    const width = Number(source.end - source.start);
    const shared = Number(min(source.end, slice.end) - max(source.start, slice.start));
    load += unchanged ? reported : reported * (shared / width);
  }
  if (!unchanged) {
    for (const k of keys.keys()) {
      const point = keyHash(k);
      if (point < slice.start || point >= slice.end) keys.delete(k);
    }
  }
  const topKeys: KeyLoad[] = [...keys].map(([k, l]) => ({ key: k, load: l }))
    .sort((a, b) => b.load - a.load || (a.key < b.key ? -1 : 1));
  return {
    slice,
    owners,
    load,
    ...(topKeys.length > 0 ? { topKeys } : {}),
    ...(pinned ? { pinned: true } : {}),
  };
}

/** The load the owners of slice `key` report for it; its top keys are added to `keys`. */
function reportedLoad(input: PlanInput, key: string, keys: Map<string, number>): number {
  let load = 0;
  for (const id of ownersOf(input, key)) {
    const report = input.executors.get(id)?.reports.get(key);
    if (report === undefined) continue;
    // Each owner of a replicated hot key reports the share it served.
    if (Number.isFinite(report.load) && report.load > 0) load += report.load;
    for (const k of report.topKeys ?? []) {
      if (Number.isFinite(k.load) && k.load > 0) keys.set(k.key, (keys.get(k.key) ?? 0) + k.load);
    }
  }
  return load;
}

/** The slices of `map` that share points with `slice`. */
function overlapping(map: SliceMap, slice: Slice): Slice[] {
  const out: Slice[] = [];
  for (let i = map.indexOfPoint(slice.start); i < map.size; i++) {
    const s = map.slices[i]!;
    if (s.start >= slice.end) break;
    out.push(s);
  }
  return out;
}

const min = (a: bigint, b: bigint) => a < b ? a : b;
const max = (a: bigint, b: bigint) => a > b ? a : b;

/** The assignment change from the current owners and map to the planned ones. */
function changeOf(
  input: PlanInput,
  planned: RangePlan,
  was: { readonly map: SliceMap | undefined; readonly pins: ReadonlySet<number> },
  now: { readonly map: SliceMap; readonly pins: ReadonlySet<number> },
  ownersAfter: (s: RangeSliceState) => readonly string[],
  fresh: ReadonlySet<string>,
): AssignmentDelta {
  const before = was.map, after = now.map;
  const assign: Record<string, string[]> = {};
  const sets: Record<string, readonly string[]> = {};
  const unassign: string[] = [];
  for (const s of planned.slices) {
    const key = String(s.slice.id);
    const current = ownersOf(input, key);
    const owners = ownersAfter(s);
    // A handed-over slice that ends on its owner again starts afresh (a new token).
    if (sameOwners(current, owners) && !fresh.has(key)) continue;
    if (owners.length === 0) {
      if (current.length > 0) unassign.push(key);
      continue;
    }
    (assign[owners[0]!] ??= []).push(key);
    if (owners.length > 1) sets[key] = owners;
  }
  const kept = new Set(after.slices.map((s) => s.id));
  const remove = (before?.slices ?? []).filter((s) => !kept.has(s.id)).map((s) => String(s.id));
  return {
    assign,
    unassign,
    remove,
    ...(Object.keys(sets).length > 0 ? { sets } : {}),
    ...(before === undefined || !before.equals(after) || !samePins(was.pins, now.pins)
      ? { slices: sliceMapText(after, now.pins) }
      : {}),
  };
}

function sameOwners(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

function samePins(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  return a.size === b.size && [...a].every((id) => b.has(id));
}
