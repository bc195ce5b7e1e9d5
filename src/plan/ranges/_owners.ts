/**
 * The owner steps of a range pass: drop owners that are not eligible, give
 * each slice the owners it should have (fills and releases, never counted as
 * moves), then move slices from the hottest executors to the coldest within
 * the churn budget. Private to the range planner.
 *
 * @module
 */
import { type ExecutorTally, ownerLoad, type Pass } from "./_pass.ts";
import type { WorkSlice } from "./load_model.ts";

/** Drops owners that are not eligible (or repeated), recording releases. */
export function dropIneligible(pass: Pass): void {
  for (const w of pass.slices) {
    const kept = w.owners.filter((id, i) => pass.executors.has(id) && w.owners.indexOf(id) === i);
    for (const id of w.owners) if (!kept.includes(id)) pass.release(w, id, "ineligible");
    w.owners = kept;
  }
}

/** Executors ordered as fill candidates for `w`: unused zones first, then least loaded, fewest slices, id. */
function candidate(pass: Pass, w: WorkSlice): ExecutorTally | undefined {
  const zones = new Set(w.owners.map((id) => pass.executors.get(id)?.zone));
  const cap = pass.maxSlicesPerExecutor;
  let best: ExecutorTally | undefined;
  let bestKey: [number, number, number, number] | undefined;
  for (const id of pass.ids) {
    if (w.owners.includes(id)) continue;
    const e = pass.executors.get(id)!;
    const key: [number, number, number, number] = [
      zones.has(e.zone) ? 1 : 0,
      e.slices >= cap ? 1 : 0,
      e.load,
      e.slices,
    ];
    if (bestKey === undefined || less(key, bestKey)) best = e, bestKey = key;
  }
  return best;
}

function less(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}

/**
 * Gives every slice the owners it should have: releases surplus replicas
 * (the most loaded non-primary first), then fills, heaviest slices first so
 * that they land on the emptiest executors.
 */
export function settleOwners(pass: Pass): void {
  for (const w of pass.slices) pass.count(w, 1);
  for (const w of pass.slices) {
    const wanted = pass.wantedOwners(w);
    while (w.owners.length > wanted) {
      const extra = w.owners.slice(1).reduce((a, b) => heavier(pass, a, b));
      pass.count(w, -1);
      w.owners = w.owners.filter((id) => id !== extra);
      pass.count(w, 1);
      pass.release(w, extra, "cooled");
    }
  }
  const order = pass.slices.map((w, i) => ({ w, i }))
    .sort((a, b) => b.w.load - a.w.load || a.i - b.i);
  for (const { w } of order) {
    const wanted = pass.wantedOwners(w);
    const why = w.owners.length > 0 && isSingle(w) ? "hot-key" : "new";
    while (w.owners.length < wanted) {
      const e = candidate(pass, w);
      if (e === undefined) break;
      pass.count(w, -1);
      w.owners.push(e.id);
      pass.count(w, 1);
      pass.fill(w, e.id, lostOwner(pass, w) ? "lost-owner" : why);
    }
  }
}

function isSingle(w: WorkSlice): boolean {
  return w.slice.end - w.slice.start === 1n;
}

/** Whether `w`'s range had an owner released as ineligible in this pass. */
function lostOwner(pass: Pass, w: WorkSlice): boolean {
  return pass.releases.some((r) =>
    r.why === "ineligible" && r.start < w.slice.end && w.slice.start < r.end
  );
}

function heavier(pass: Pass, a: string, b: string): string {
  const la = pass.executors.get(a)?.load ?? 0, lb = pass.executors.get(b)?.load ?? 0;
  return lb > la || (lb === la && b > a) ? b : a;
}

/**
 * Moves slices from the hottest executor to the coldest until the hottest
 * is within the tolerance, the budget is spent, or no move helps: the slice
 * moved is the heaviest whose per-owner load is at most half the gap (else
 * the lightest that still narrows it), never a pinned one. When no single
 * move helps, an {@linkcode exchange} of slices with a cold executor may.
 */
export function balance(pass: Pass): void {
  if (pass.mean <= 0 || pass.ids.length < 2) return;
  const limit = pass.mean * (1 + pass.settings.imbalanceTolerance);
  const stuck = new Set<string>();
  while (pass.budgetLeft > 0) {
    const tallies = [...pass.executors.values()];
    const hot = tallies.filter((e) => !stuck.has(e.id))
      .reduce<ExecutorTally | undefined>(
        (a, e) => (a === undefined || e.load > a.load ? e : a),
        undefined,
      );
    if (hot === undefined || hot.load <= limit) return;
    const colds = tallies.filter((e) => e.slices < pass.maxSlicesPerExecutor && e.id !== hot.id)
      .sort((a, b) => a.load - b.load || a.slices - b.slices || (a.id < b.id ? -1 : 1))
      .slice(0, 8);
    let done = false;
    for (const cold of colds) {
      const w = pickSlice(pass, hot, cold, limit);
      if (w === undefined) continue;
      moveOwner(pass, w, hot.id, cold.id);
      done = true;
      break;
    }
    if (!done && !colds.some((cold) => exchange(pass, hot, cold, limit))) {
      stuck.add(hot.id);
    }
  }
}

function moveOwner(pass: Pass, w: WorkSlice, from: string, to: string): void {
  pass.count(w, -1);
  w.owners = w.owners.map((id) => (id === from ? to : id));
  pass.count(w, 1);
  pass.move(w, from, to);
}

/**
 * When no single move helps the hottest executor (its slices are few and
 * heavy: a hot key's slice or replica weighs more than any cold executor
 * has room for), an exchange may: one of its slices goes to `cold`, which
 * gives back lighter slices of its own (heaviest first, as few as will do),
 * so that both end within `limit`. Paid from the churn budget like every
 * move; returns whether it was made.
 */
function exchange(pass: Pass, hot: ExecutorTally, cold: ExecutorTally, limit: number): boolean {
  if (hot.load + cold.load > 2 * limit) return false;
  const given = pass.slices.filter((w) => movable(w, hot, cold) && ownerLoad(w) > 0)
    .sort((a, b) => ownerLoad(a) - ownerLoad(b));
  const offered = pass.slices.filter((w) => movable(w, cold, hot) && ownerLoad(w) > 0)
    .sort((a, b) => ownerLoad(b) - ownerLoad(a));
  for (const a of given) {
    const load = ownerLoad(a);
    // What comes back must leave cold within the limit and hot within it too.
    const least = cold.load + load - limit, most = limit - hot.load + load;
    if (least <= 0 || most < least) continue;
    const back: WorkSlice[] = [];
    let sum = 0;
    for (const w of offered) {
      if (sum >= least || back.length + 1 >= pass.budgetLeft) break;
      if (sum + ownerLoad(w) <= most) back.push(w), sum += ownerLoad(w);
    }
    if (sum < least || hot.slices - 1 + back.length > pass.maxSlicesPerExecutor) continue;
    moveOwner(pass, a, hot.id, cold.id);
    for (const w of back) moveOwner(pass, w, cold.id, hot.id);
    return true;
  }
  return false;
}

/** Whether `w` may move from `from` to `to`: not pinned, held by `from` and not by `to`. */
function movable(w: WorkSlice, from: ExecutorTally, to: ExecutorTally): boolean {
  return !w.pinned && w.owners.includes(from.id) && !w.owners.includes(to.id);
}

/**
 * The slice to move from `from` to `to`: among those that would bring `from`
 * within `limit` without taking `to` over it, the narrowest (fewest keys of
 * the line move, a hot key's own slice none); else the heaviest whose
 * per-owner load is at most half the gap, else the lightest that still
 * narrows it.
 */
function pickSlice(
  pass: Pass,
  from: ExecutorTally,
  to: ExecutorTally,
  limit: number,
): WorkSlice | undefined {
  const gap = from.load - to.load, excess = from.load - limit, room = limit - to.load;
  let narrow: WorkSlice | undefined, narrowWidth = 0n;
  let best: WorkSlice | undefined, bestLoad = -1;
  let fallback: WorkSlice | undefined, fallbackLoad = Infinity;
  for (const w of pass.slices) {
    if (!movable(w, from, to)) continue;
    const l = ownerLoad(w);
    if (l <= 0 || l >= gap) continue;
    const width = w.slice.end - w.slice.start;
    if (l >= excess && l <= room && (narrow === undefined || width < narrowWidth)) {
      narrow = w, narrowWidth = width;
    }
    if (l <= gap / 2 && l > bestLoad) best = w, bestLoad = l;
    else if (l > gap / 2 && l < fallbackLoad) fallback = w, fallbackLoad = l;
  }
  return narrow ?? best ?? fallback;
}
