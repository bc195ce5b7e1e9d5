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
 * than `max`; a pair with different owners only within the budget.
 */
export function mergeColdSlices(pass: Pass): void {
  const { min, max } = pass.sliceBounds;
  const cold = pass.settings.mergeThreshold * pass.mean;
  const mergeable = (a: WorkSlice, b: WorkSlice) =>
    !fixedRange(a) && !fixedRange(b) && mergeCost(a, b) <= pass.budgetLeft &&
    (pass.available || sameOwners(a, b)); // exclusive: a range changes owner only by a handover
  if (pass.mean > 0) {
    for (let i = 0; i + 1 < pass.slices.length && pass.slices.length > min;) {
      const a = pass.slices[i]!, b = pass.slices[i + 1]!;
      if (a.load + b.load < cold && mergeable(a, b)) merge(pass, i);
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
    merge(pass, best);
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
