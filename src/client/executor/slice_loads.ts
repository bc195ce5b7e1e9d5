/**
 * What a key-range executor measures for the planner (issue 43): the load of
 * each slice it holds and the heaviest keys in each, from what the
 * application reports per key. The planner splits a slice at the
 * load-weighted point its top keys give, and isolates a key whose own load
 * passes the hot-key threshold.
 *
 * One window at a time: {@linkcode SliceLoads.record} adds load to the slice
 * holding the key (found by the key's hash, as the server and the spectator
 * find it); {@linkcode SliceLoads.report} returns each held slice's load per
 * second over the window and its top keys, and starts a new window. The
 * report is bounded: at most `topKeys` keys per slice, each at most
 * {@linkcode MAX_REPORTED_KEY_LENGTH} characters (a longer key counts in its
 * slice's load but is never reported by name, so one heartbeat stays small
 * whatever the application's keys).
 *
 * @module
 */
import { RangeIndex } from "../../shared/point_index.ts";
import { SpaceSaving } from "../../shared/space_saving.ts";

/** A slice the executor holds: `[start, end)` of the 64-bit hash line. */
export interface HeldSlice {
  /** The slice id (its shard key on the wire is the id in decimal). */
  readonly id: number;
  /** First point, inclusive. */
  readonly start: bigint;
  /** One past the last point, exclusive (2^64 for the last slice). */
  readonly end: bigint;
  /** Bumped whenever the range of this id changes. */
  readonly generation: number;
}

/** One held slice's load over a window. */
export interface SliceLoadReport {
  /** The slice id. */
  readonly sliceId: number;
  /** The generation the load was measured under. */
  readonly generation: number;
  /** Load per second over the window. */
  readonly load: number;
  /** The heaviest keys, heaviest first: each one's guaranteed load per second. */
  readonly topKeys: readonly { readonly key: string; readonly load: number }[];
}

/** Options of {@linkcode SliceLoads}. */
export interface SliceLoadsOptions {
  /** Keys reported per slice (1 to 32; the namespace's `range.sketchSize`). @default {16} */
  readonly topKeys?: number;
  /** Keys each slice's sketch keeps, at least `topKeys` (up to 4096). @default {4 × topKeys} */
  readonly sketchCapacity?: number;
}

/** The longest key reported by name, in UTF-16 code units. */
export const MAX_REPORTED_KEY_LENGTH = 256;

const LINE_END = 1n << 64n;

/** A held slice, its window's load and its sketch. */
interface Meter {
  readonly slice: HeldSlice;
  load: number;
  sketch: SpaceSaving;
}

/**
 * Per-slice load and top keys of one executor's slices; see the module doc.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SliceLoads } from "./slice_loads.ts";
 *
 * const meter = new SliceLoads({ topKeys: 1 }, 0);
 * meter.hold([{ id: 0, start: 0n, end: 1n << 64n, generation: 0 }]);
 * meter.record("user:1", 30);
 * meter.record("user:2", 10);
 * const [report] = meter.report(2_000); // a 2 s window
 * assert.equal(report?.load, 20);
 * assert.deepEqual(report?.topKeys, [{ key: "user:1", load: 15 }]);
 * ```
 */
export class SliceLoads {
  readonly #topKeys: number;
  readonly #capacity: number;
  /** Held slices in line order. */
  #meters: Meter[] = [];
  #index = new RangeIndex([]);
  #windowStartMs: number;

  /** A meter holding no slice, its first window starting at `nowMs` (monotonic). */
  constructor(options: SliceLoadsOptions = {}, nowMs = 0) {
    const topKeys = options.topKeys ?? 16;
    if (!Number.isInteger(topKeys) || topKeys < 1 || topKeys > 32) {
      throw new RangeError(`topKeys must be an integer from 1 to 32, got ${topKeys}`);
    }
    const capacity = options.sketchCapacity ?? 4 * topKeys;
    if (!Number.isInteger(capacity) || capacity < topKeys || capacity > 4096) {
      throw new RangeError(
        `sketchCapacity must be an integer from topKeys (${topKeys}) to 4096, got ${capacity}`,
      );
    }
    this.#topKeys = topKeys;
    this.#capacity = capacity;
    this.#windowStartMs = nowMs;
  }

  /**
   * Sets the slices held now. A slice still held with the same id and
   * generation keeps its window's load; one whose range changed (a split or
   * merge bumped its generation) starts again from nothing, and one no longer
   * held is forgotten. Throws a `RangeError` for an empty or out-of-line range
   * or for overlapping slices.
   */
  hold(slices: readonly HeldSlice[]): void {
    const before = new Map(this.#meters.map((m) => [m.slice.id, m]));
    const sorted = [...slices].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    const meters: Meter[] = [];
    for (const slice of sorted) {
      if (!(slice.start >= 0n && slice.start < slice.end && slice.end <= LINE_END)) {
        throw new RangeError(`Slice ${slice.id} has no valid range [${slice.start}, ${slice.end})`);
      }
      const previous = meters.at(-1);
      if (previous && previous.slice.end > slice.start) {
        throw new RangeError(`Slices ${previous.slice.id} and ${slice.id} overlap`);
      }
      const kept = before.get(slice.id);
      if (kept && kept.slice.generation === slice.generation) {
        meters.push({ ...kept, slice });
        continue;
      }
      meters.push({ slice, load: 0, sketch: new SpaceSaving(this.#capacity) });
    }
    this.#meters = meters;
    this.#index = new RangeIndex(
      meters.map((m) => ({ firstPoint: m.slice.start, lastPoint: m.slice.end - 1n })),
    );
  }

  /** The held slice holding `key`, or `undefined` when none does (the key is not this executor's). */
  sliceOf(key: string): HeldSlice | undefined {
    return this.#meterOf(key)?.slice;
  }

  /**
   * Adds `load` (finite, ≥ 0; default 1) to `key`'s slice. Returns `false`,
   * counting nothing, when no held slice holds the key.
   */
  record(key: string, load = 1): boolean {
    if (!(load >= 0) || load === Infinity) {
      throw new RangeError(`Expected a finite load of 0 or more, got ${load}`);
    }
    const meter = this.#meterOf(key);
    if (meter === undefined) return false;
    meter.load += load;
    if (key.length <= MAX_REPORTED_KEY_LENGTH) meter.sketch.offer(key, load);
    return true;
  }

  /**
   * Each held slice's load per second since the window began, with its top
   * keys, in line order; a new window starts at `nowMs`. A window shorter than
   * 1 ms counts as 1 ms.
   */
  report(nowMs: number): SliceLoadReport[] {
    const seconds = Math.max(1, nowMs - this.#windowStartMs) / 1000;
    this.#windowStartMs = nowMs;
    return this.#meters.map((m) => {
      const topKeys = m.sketch.top(this.#topKeys)
        .map((h) => ({ key: h.key, load: (h.count - h.error) / seconds }))
        .filter((k) => k.load > 0);
      const report = {
        sliceId: m.slice.id,
        generation: m.slice.generation,
        load: m.load / seconds,
        topKeys,
      };
      m.load = 0;
      m.sketch = new SpaceSaving(this.#capacity);
      return report;
    });
  }

  #meterOf(key: string): Meter | undefined {
    return this.#meters[this.#index.indexOfKey(key)];
  }
}
