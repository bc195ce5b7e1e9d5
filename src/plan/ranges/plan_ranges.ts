/**
 * The range planner: one pass over a key-range namespace's slices. Pure and
 * deterministic: the same input and settings give the same plan (no clock,
 * no randomness; ties broken by id and line order).
 *
 * @module
 */
import type { RangeSettings } from "../../config/range_settings.ts";
import { coverageProblem, LINE_END, SliceMap } from "../../core/slices.ts";
import { Pass } from "./_pass.ts";
import { isolateHotKeys, mergeColdSlices, splitSlices, topUpSlices } from "./_structure.ts";
import { balance, dropIneligible, settleOwners } from "./_owners.ts";
import { toWork, type WorkSlice } from "./load_model.ts";
import type { RangePlan, RangePlanInput, RangeSliceState } from "./types.ts";

/**
 * Plans one pass, in this order: owners that are not eligible are dropped;
 * a new namespace gets `initialSlices` equal slices; every key above the
 * hot-key threshold gets a single-key slice; slices above the split threshold
 * are split at their load-weighted point (and the heaviest while there are
 * fewer than `min` per executor); cold neighbours are merged (and the
 * lightest while there are more than `max`); every slice gets the owners it
 * should have (an isolated hot key more, in an available namespace); then
 * slices move from the hottest executors to the coldest until the hottest is
 * within the imbalance tolerance or the churn budget is spent. Splits, and
 * merges of slices with the same owners, move nothing.
 *
 * Throws a `RangeError` for input that does not describe a slice map (gaps,
 * overlaps, repeated ids or owners, loads that are not finite numbers ≥ 0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RANGE_DEFAULTS } from "../../config/range_settings.ts";
 * import { planRanges } from "./plan_ranges.ts";
 *
 * const executors = [{ id: "e1" }, { id: "e2" }];
 * const first = planRanges(
 *   { slices: [], nextSliceId: 0, executors, ownership: "available" },
 *   { ...RANGE_DEFAULTS, initialSlices: 4 },
 * );
 * assert.equal(first.slices.length, 16); // 8 per executor at least
 * assert.equal(first.moves.length, 0); // placing new slices is no move
 * assert.deepEqual(first.slicesPerExecutor, { min: 8, max: 8 });
 * ```
 */
export function planRanges(input: RangePlanInput, settings: RangeSettings): RangePlan {
  validate(input);
  let works: WorkSlice[];
  let nextId = input.nextSliceId;
  if (input.slices.length === 0) {
    const map = SliceMap.initial(settings.initialSlices);
    works = map.slices.map((slice) => toWork({ slice, owners: [], load: 0 }));
    nextId = Math.max(nextId, map.nextId);
  } else {
    works = input.slices.map(toWork);
  }
  const pass = new Pass(settings, works, input.executors, input.ownership === "available", nextId);
  if (pass.ids.length > 0) {
    dropIneligible(pass);
    isolateHotKeys(pass);
    splitSlices(pass);
    mergeColdSlices(pass);
    settleOwners(pass);
    balance(pass);
    topUpSlices(pass);
  }
  return result(pass);
}

function result(pass: Pass): RangePlan {
  const slices: RangeSliceState[] = pass.slices.map((w) => ({
    slice: w.slice,
    owners: w.owners,
    load: w.load,
    ...(w.keys.length === 0 ? {} : { topKeys: w.keys.map((k) => ({ key: k.key, load: k.load })) }),
    ...(w.pinned ? { pinned: true } : {}),
  }));
  const tallies = [...pass.executors.values()];
  const max = tallies.reduce((m, e) => Math.max(m, e.load), 0);
  return {
    slices,
    nextSliceId: pass.nextId,
    splits: pass.splits,
    merges: pass.merges,
    isolations: pass.isolations,
    moves: pass.moves,
    fills: pass.fills,
    releases: pass.releases,
    keyspaceMoved: unionShare(pass.moves),
    maxOverMean: pass.mean > 0 ? max / pass.mean : 1,
    slicesPerExecutor: {
      min: tallies.reduce((m, e) => Math.min(m, e.slices), tallies.length === 0 ? 0 : Infinity),
      max: tallies.reduce((m, e) => Math.max(m, e.slices), 0),
    },
  };
}

/** Share of the line covered by at least one of `ranges`. */
function unionShare(ranges: readonly { start: bigint; end: bigint }[]): number {
  const sorted = [...ranges].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  let covered = 0n, reach = 0n;
  for (const r of sorted) {
    const from = r.start > reach ? r.start : reach;
    if (r.end > from) covered += r.end - from;
    if (r.end > reach) reach = r.end;
  }
  return Number(covered) / Number(LINE_END);
}

function validate(input: RangePlanInput): void {
  const fail = (what: string): never => {
    throw new RangeError(`Invalid range plan input: ${what}`);
  };
  if (!Number.isSafeInteger(input.nextSliceId) || input.nextSliceId < 0) {
    fail(`nextSliceId must be a non-negative integer, got ${input.nextSliceId}`);
  }
  if (input.slices.length > 0) {
    const problem = coverageProblem(input.slices.map((s) => s.slice), input.nextSliceId);
    if (problem !== undefined) fail(problem);
  }
  const ids = new Set<string>();
  for (const e of input.executors) {
    if (typeof e.id !== "string" || e.id === "") fail(`executor id ${JSON.stringify(e.id)}`);
    if (ids.has(e.id)) fail(`executor ${JSON.stringify(e.id)} is listed twice`);
    ids.add(e.id);
  }
  for (const s of input.slices) {
    if (!(s.load >= 0) || s.load === Infinity) fail(`slice ${s.slice.id} has load ${s.load}`);
    if (new Set(s.owners).size !== s.owners.length) {
      fail(`slice ${s.slice.id} lists an owner twice: ${JSON.stringify(s.owners)}`);
    }
    for (const k of s.topKeys ?? []) {
      if (!(k.load >= 0) || k.load === Infinity) {
        fail(`slice ${s.slice.id} has key ${JSON.stringify(k.key)} with load ${k.load}`);
      }
    }
  }
}
