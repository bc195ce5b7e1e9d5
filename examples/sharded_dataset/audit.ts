/**
 * Reads the record file the nodes write (`start`, `loaded`, `stop` per
 * slice and process) as holding intervals, and finds slices held by two
 * processes at once.
 *
 * @module
 */

/** One line of the record file. */
export interface SliceRecord {
  /** `start`: the processor started; `loaded`: the slice is in memory; `stop`: released. */
  readonly kind: "start" | "loaded" | "stop";
  /** The slice. */
  readonly slice: number;
  /** The node's name. */
  readonly node: string;
  /** The node's process id. */
  readonly pid: number;
  /** The shard's fencing token (on `start`). */
  readonly token?: string;
  /** Orders loaded (on `loaded`). */
  readonly records?: number;
  /** Why it stopped (on `stop`). */
  readonly reason?: string;
  /** When, ms since the epoch. */
  readonly at: number;
}

/** A process holding a slice from `start` to `end` (`Infinity`: still holding). */
export interface Interval {
  /** The slice. */
  readonly slice: number;
  /** The node's name. */
  readonly node: string;
  /** The node's process id. */
  readonly pid: number;
  /** When its processor started. */
  readonly start: number;
  /** When it stopped, died, or `Infinity`. */
  end: number;
  /** When the slice was in memory, if it got that far. */
  loadedAt?: number;
}

/**
 * Pairs each `start` with the next `stop` of the same slice and process. A
 * process in `deaths` (pid → when it was killed) holds its open intervals
 * until then: a killed process stops for real.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { intervals } from "./audit.ts";
 * const r = (kind: "start" | "stop", at: number) => ({ kind, slice: 1, node: "a", pid: 7, at });
 * assert.equal(intervals([r("start", 1), r("stop", 5)])[0]?.end, 5);
 * ```
 */
export function intervals(
  records: readonly SliceRecord[],
  deaths: ReadonlyMap<number, number> = new Map(),
): Interval[] {
  const all: Interval[] = [];
  const open = new Map<string, Interval>();
  for (const r of records) {
    const key = `${r.slice}/${r.pid}`;
    if (r.kind === "start") {
      const interval: Interval = {
        slice: r.slice,
        node: r.node,
        pid: r.pid,
        start: r.at,
        end: Infinity,
      };
      open.set(key, interval);
      all.push(interval);
    } else if (r.kind === "loaded") {
      const interval = open.get(key);
      if (interval) interval.loadedAt = r.at;
    } else {
      const interval = open.get(key);
      if (interval) interval.end = r.at;
      open.delete(key);
    }
  }
  for (const interval of open.values()) interval.end = deaths.get(interval.pid) ?? Infinity;
  return all;
}

/**
 * Pairs of intervals of one slice that overlap inside `[since, until]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { overlaps } from "./audit.ts";
 * const i = (pid: number, start: number, end: number) => ({ slice: 0, node: "n", pid, start, end });
 * assert.equal(overlaps([i(1, 0, 10), i(2, 5, 20)]).length, 1);
 * assert.equal(overlaps([i(1, 0, 10), i(2, 5, 20)], 10).length, 0);
 * ```
 */
export function overlaps(
  all: readonly Interval[],
  since = -Infinity,
  until = Infinity,
): [Interval, Interval][] {
  const found: [Interval, Interval][] = [];
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i]!, b = all[j]!;
      if (a.slice !== b.slice) continue;
      const from = Math.max(a.start, b.start, since), to = Math.min(a.end, b.end, until);
      if (from < to) found.push([a, b]);
    }
  }
  return found;
}

/**
 * The intervals still open (the current holders), by slice.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holders } from "./audit.ts";
 * assert.equal(holders([{ slice: 2, node: "n", pid: 1, start: 0, end: Infinity }]).size, 1);
 * ```
 */
export function holders(all: readonly Interval[]): Map<number, Interval[]> {
  const held = new Map<number, Interval[]>();
  for (const interval of all) {
    if (interval.end !== Infinity) continue;
    held.set(interval.slice, [...held.get(interval.slice) ?? [], interval]);
  }
  return held;
}
