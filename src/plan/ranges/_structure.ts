/**
 * The structural steps of a range pass: isolate hot keys, split hot (or too
 * few) slices, merge cold neighbours. A split or a merge of slices with the
 * same owners keeps every key where it is; a merge of slices with different
 * owners moves the lighter side and is paid from the churn budget (never
 * made in an exclusive namespace, where a range changes owner only through a
 * handover). Pinned slices and slices being handed over keep their range.
 * Private to the range planner.
 *
 * @module
 */
import type { Pass } from "./_pass.ts";
import {
  fixedRange,
  isSinglePoint,
  mergeWork,
  splitWork,
  weightedSplitPoint,
  type WorkSlice,
} from "./load_model.ts";
import type { SplitReason } from "./types.ts";

function splitAt(pass: Pass, i: number, at: bigint, reason: SplitReason): void {
  const w = pass.slices[i]!;
  const [left, right] = splitWork(w, at, pass.nextId++);
  pass.slices.splice(i, 1, left, right);
  pass.splits.push({ sliceId: w.slice.id, at, newSliceId: right.slice.id, reason });
}

/** Gives every key above the hot-key threshold a single-point slice of its own. */
export function isolateHotKeys(pass: Pass): void {
  if (pass.mean <= 0) return;
  const threshold = pass.settings.hotKeyThreshold * pass.mean;
  for (let i = 0; i < pass.slices.length; i++) {
    const w = pass.slices[i]!;
    if (fixedRange(w) || isSinglePoint(w)) continue;
    const hot = w.keys.find((k) => k.load > threshold);
    if (hot === undefined) continue;
    if (hot.point > w.slice.start) splitAt(pass, i++, hot.point, "hot-key");
    const rest = pass.slices[i]!;
    if (rest.slice.end > hot.point + 1n) splitAt(pass, i, hot.point + 1n, "hot-key");
    const single = pass.slices[i]!;
    pass.isolations.push({
      key: hot.key,
      point: hot.point,
      sliceId: single.slice.id,
      load: single.load,
      replicas: pass.wantedOwners(single),
    });
  }
}

/** Splits slices above the split threshold, then the heaviest while there are too few. */
export function splitSlices(pass: Pass): void {
  const { min, max } = pass.sliceBounds;
  if (pass.mean > 0) {
    const threshold = pass.settings.splitThreshold * pass.mean;
    for (let i = 0; i < pass.slices.length && pass.slices.length < max;) {
      const w = pass.slices[i]!;
      const at = fixedRange(w) || w.load <= threshold ? undefined : weightedSplitPoint(w);
      if (at === undefined) i++;
      else splitAt(pass, i, at, "load"); // the left part is checked again
    }
  }
  while (pass.slices.length < min) {
    let best = -1;
    for (const [i, w] of pass.slices.entries()) {
      if (fixedRange(w) || w.slice.end - w.slice.start < 2n) continue;
      const b = pass.slices[best];
      if (
        b === undefined || w.load > b.load ||
        (w.load === b.load && w.slice.end - w.slice.start > b.slice.end - b.slice.start)
      ) best = i;
    }
    const w = pass.slices[best];
    const at = w === undefined ? undefined : weightedSplitPoint(w);
    if (at === undefined) return;
    splitAt(pass, best, at, "count");
  }
}

function sameOwners(a: WorkSlice, b: WorkSlice): boolean {
  return a.owners.length === b.owners.length && a.owners.every((id, i) => b.owners[i] === id);
}

/**
 * Merges neighbours lighter together than the merge threshold while the
 * line has more than `min` slices, and the lightest pairs while it has more
 * than `max`; a pair with different owners only within the budget. A cold
 * merge never takes an executor below its own `slicesPerExecutor.min` (it
 * would be split again by {@linkcode topUpSlices}, pass after pass).
 */
export function mergeColdSlices(pass: Pass): void {
  const { min, max } = pass.sliceBounds;
  const perExecutorMin = pass.settings.slicesPerExecutor.min;
  const cold = pass.settings.mergeThreshold * pass.mean;
  const held = new Map<string, number>();
  const hold = (w: WorkSlice, n: number) => {
    for (const id of w.owners) held.set(id, (held.get(id) ?? 0) + n);
  };
  for (const w of pass.slices) hold(w, 1);
  const mergeable = (a: WorkSlice, b: WorkSlice) =>
    !fixedRange(a) && !fixedRange(b) && mergeCost(a, b) <= pass.budgetLeft &&
    (pass.available || sameOwners(a, b)); // exclusive: a range changes owner only by a handover
  // A merge takes a slice from the owners that do not keep it (both sides' when they share one).
  const keepsMinimum = (a: WorkSlice, b: WorkSlice) => {
    const kept = mergedOwners(a, b);
    return [...new Set([...a.owners, ...b.owners])].every((id) => {
      const change = (kept.includes(id) ? 1 : 0) - (a.owners.includes(id) ? 1 : 0) -
        (b.owners.includes(id) ? 1 : 0);
      return change >= 0 || (held.get(id) ?? 0) + change >= perExecutorMin;
    });
  };
  const join = (i: number) => {
    const a = pass.slices[i]!, b = pass.slices[i + 1]!;
    hold(a, -1), hold(b, -1);
    merge(pass, i);
    hold(pass.slices[i]!, 1);
  };
  if (pass.mean > 0) {
    for (let i = 0; i + 1 < pass.slices.length && pass.slices.length > min;) {
      const a = pass.slices[i]!, b = pass.slices[i + 1]!;
      if (a.load + b.load < cold && mergeable(a, b) && keepsMinimum(a, b)) join(i);
      else i++;
    }
  }
  while (pass.slices.length > max) {
    let best = -1, bestLoad = Infinity;
    for (let i = 0; i + 1 < pass.slices.length; i++) {
      const a = pass.slices[i]!, b = pass.slices[i + 1]!;
      const load = a.load + b.load + (sameOwners(a, b) ? 0 : pass.mean); // prefer free merges
      if (load < bestLoad && mergeable(a, b)) best = i, bestLoad = load;
    }
    if (best < 0) return;
    join(best);
  }
}

/**
 * Splits, without moving anything, the heaviest slices of each executor that
 * owns fewer than `slicesPerExecutor.min` slices alone (an executor that
 * holds a hot key's slice carries much of its load in that one slice, and
 * balancing leaves it few others). A split keeps the owner: no key moves.
 * Needs the executors' tallies (after the owners are settled).
 */
export function topUpSlices(pass: Pass): void {
  const perExecutorMin = pass.settings.slicesPerExecutor.min;
  const { max } = pass.sliceBounds;
  for (const e of pass.executors.values()) {
    while (e.slices < perExecutorMin && pass.slices.length < max) {
      let best = -1;
      for (const [i, w] of pass.slices.entries()) {
        if (w.owners.length !== 1 || w.owners[0] !== e.id || fixedRange(w)) continue;
        if (w.slice.end - w.slice.start < 2n) continue;
        if (best < 0 || w.load > pass.slices[best]!.load) best = i;
      }
      if (best < 0) break; // only hot keys' single-point slices (or pinned ones) left to it
      const w = pass.slices[best]!;
      const at = weightedSplitPoint(w) ?? w.slice.start + (w.slice.end - w.slice.start) / 2n;
      splitAt(pass, best, at, "count");
      e.slices++;
    }
  }
}

/** Merges slice `i` with slice `i + 1`; the merged slice keeps the heavier side's owners. */
function merge(pass: Pass, i: number): void {
  const a = pass.slices[i]!, b = pass.slices[i + 1]!;
  const owners = mergedOwners(a, b);
  let moved = false;
  for (const side of [a, b]) {
    const gained = owners.filter((id) => !side.owners.includes(id));
    const lost = side.owners.filter((id) => !owners.includes(id));
    for (const [j, to] of gained.entries()) {
      const from = lost[j];
      if (from === undefined) pass.fill(side, to, "new");
      else pass.move(side, from, to), moved = true;
    }
    for (const from of lost.slice(gained.length)) pass.release(side, from, "cooled");
  }
  pass.merges.push({ sliceId: a.slice.id, absorbedId: b.slice.id, moved });
  pass.slices.splice(i, 2, mergeWork(a, b, owners));
}

/** The heavier side's owners (the owned side's when one has none). */
function mergedOwners(a: WorkSlice, b: WorkSlice): string[] {
  if (a.owners.length === 0 || b.owners.length === 0) {
    return [...(a.owners.length === 0 ? b.owners : a.owners)];
  }
  return [...(b.load > a.load ? b.owners : a.owners)];
}

/** Owner replacements merging `a` and `b` costs. */
function mergeCost(a: WorkSlice, b: WorkSlice): number {
  const owners = mergedOwners(a, b);
  let cost = 0;
  for (const side of [a, b]) {
    const lost = side.owners.filter((id) => !owners.includes(id)).length;
    const gained = owners.filter((id) => !side.owners.includes(id)).length;
    cost += Math.min(lost, gained);
  }
  return cost;
}
