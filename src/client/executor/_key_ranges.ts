/**
 * The executor side of a key-range namespace (`type: range`): the range of
 * each slice it holds, as the latest answer gives it (a split shrinks a held
 * slice without a new assignment), the `contains(key)` check a processor
 * refuses foreign keys with, and the per-key load the application reports
 * (`reportKeyLoad`), measured per slice with its top keys and sent in the
 * next heartbeat's reports, from which the planner splits slices and
 * isolates hot keys.
 *
 * @module
 */
import type { HeartbeatResponse__Output, ShardStatusReport__Output } from "../../wire/proto.ts";
import { type HeldSlice, SliceLoads } from "./slice_loads.ts";

/** The range of a held slice, as a processor sees it. */
export interface SliceInfo {
  /** The slice id (its shard key is the id in decimal). */
  readonly id: number;
  /** First point of the 64-bit hash line, inclusive. */
  readonly start: bigint;
  /** One past the last point (2^64 for the last slice). */
  readonly end: bigint;
  /** Bumped whenever the range of this id changes. */
  readonly generation: number;
}

/**
 * The held slices of one executor and their load.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KeyRanges } from "./_key_ranges.ts";
 *
 * const ranges = new KeyRanges(() => 0);
 * ranges.follow({
 *   shardAssignments: {
 *     "4": { status: "ASSIGNMENT_STATUS_READY", fencingToken: "9",
 *       keyRange: { firstPoint: "0", lastPoint: "18446744073709551615", generation: 1 } },
 *   },
 * } as never);
 * assert.equal(ranges.slice("4")?.generation, 1);
 * assert.equal(ranges.contains("4", "any key"), true);
 * assert.equal(ranges.contains("5", "any key"), false);
 * ```
 */
export class KeyRanges {
  readonly #loads: SliceLoads;
  readonly #now: () => number;
  #slices = new Map<string, SliceInfo>();
  /** The application reported per-key load: slice loads come from it, not `reportLoad`. */
  #measured = false;

  /** Slices of an executor whose clock reads `now` (ms); `topKeys` per slice (1 to 32). */
  constructor(now: () => number, topKeys = 16) {
    this.#now = now;
    this.#loads = new SliceLoads({ topKeys }, now());
  }

  /** Whether the executor holds any key range (its namespace is a key-range one). */
  get active(): boolean {
    return this.#slices.size > 0;
  }

  /** Takes the ranges an answer gives its assignments (those without one are not slices). */
  follow(answer: HeartbeatResponse__Output): void {
    const next = new Map<string, SliceInfo>();
    for (const [key, assignment] of Object.entries(answer.shardAssignments ?? {})) {
      const range = assignment.keyRange;
      if (!range) continue;
      const start = BigInt(range.firstPoint);
      const end = BigInt(range.lastPoint) + 1n;
      next.set(key, { id: Number(key), start, end, generation: range.generation });
    }
    if (sameSlices(next, this.#slices)) return;
    try {
      this.#loads.hold([...next.values()] satisfies HeldSlice[]);
      this.#slices = next;
    } catch {
      // Ranges that overlap or are not ranges: keep the last good ones.
    }
  }

  /** The range of held slice `shardKey`, or undefined (not held, or not a key-range namespace). */
  slice(shardKey: string): SliceInfo | undefined {
    return this.#slices.get(shardKey);
  }

  /** Whether `key` hashes into held slice `shardKey` as its range is now. */
  contains(shardKey: string, key: string): boolean {
    const slice = this.#loads.sliceOf(key);
    return slice !== undefined && String(slice.id) === shardKey;
  }

  /**
   * Adds `load` to the slice holding `key` (ignored when none is held here);
   * throws a `RangeError` for a load that is not a finite number ≥ 0.
   */
  record(key: string, load: number): void {
    this.#measured = true;
    this.#loads.record(key, load);
  }

  /**
   * Puts each held slice's load per second since the last call, and its top
   * keys, into `reports` (only slices already reported there: running ones),
   * once the application reported any per-key load.
   */
  addTo(reports: Record<string, ShardStatusReport__Output>): void {
    if (!this.#measured) return;
    for (const r of this.#loads.report(this.#now())) {
      const key = String(r.sliceId);
      const base = reports[key];
      if (base === undefined) continue;
      reports[key] = {
        ...base,
        shardLoad: r.load,
        topKeys: r.topKeys.map((k) => ({ key: k.key, load: k.load })),
      };
    }
  }
}

function sameSlices(a: ReadonlyMap<string, SliceInfo>, b: ReadonlyMap<string, SliceInfo>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, s] of a) {
    const t = b.get(key);
    if (!t || t.start !== s.start || t.end !== s.end || t.generation !== s.generation) return false;
  }
  return true;
}
