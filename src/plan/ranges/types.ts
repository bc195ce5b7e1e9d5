/**
 * Plain input and output of the range planner: slices with owners and load
 * in, the new slices and every change (split, merge, isolation, move, fill,
 * release) out.
 *
 * @module
 */
import type { Slice } from "../../core/slices.ts";
import type { KeyLoad } from "../../core/types.ts";

export type { KeyLoad } from "../../core/types.ts";

/** A slice as the pass sees it. */
export interface RangeSliceState {
  /** The range, id and generation. */
  readonly slice: Slice;
  /** Owners, primary first; empty when unowned. */
  readonly owners: readonly string[];
  /** The slice's load over the last report window (0 when unknown). */
  readonly load: number;
  /** Its heaviest keys; absent: none known. */
  readonly topKeys?: readonly KeyLoad[];
  /** Pinned by an operator: never split, merged or moved by the planner. */
  readonly pinned?: boolean;
  /**
   * Exclusive namespaces: the slice is being handed over (its owner was asked
   * to release it): not split or merged until the handover ends; its owner may
   * still change.
   */
  readonly locked?: boolean;
}

/** An executor the planner may give slices to. */
export interface RangeExecutor {
  /** Executor id. */
  readonly id: string;
  /** Fault zone; owners of one slice are spread over zones first. */
  readonly zone?: string;
}

/** What a pass plans from. */
export interface RangePlanInput {
  /** Slices in line order, covering the line exactly once; empty for a new namespace. */
  readonly slices: readonly RangeSliceState[];
  /** The id the next new slice gets (the slice map's `nextId`). */
  readonly nextSliceId: number;
  /** The eligible executors (alive, active, not drained). */
  readonly executors: readonly RangeExecutor[];
  /** Whether a slice may have several owners at once (`available`) or not. */
  readonly ownership: "available" | "exclusive";
}

/** Why a slice was split. */
export type SplitReason = "load" | "count" | "hot-key";

/** A split: `[start, at)` keeps `sliceId`, `[at, end)` is `newSliceId`; owners kept. */
export interface PlannedSplit {
  /** The slice split (it keeps the left part). */
  readonly sliceId: number;
  /** The first point of the right part. */
  readonly at: bigint;
  /** The id of the right part. */
  readonly newSliceId: number;
  /** Why it was split. */
  readonly reason: SplitReason;
}

/** A merge: `absorbedId` joins `sliceId`, its left neighbour. */
export interface PlannedMerge {
  /** The left slice, which keeps its id. */
  readonly sliceId: number;
  /** The right slice, whose id is retired. */
  readonly absorbedId: number;
  /** Whether the absorbed range changed owners (then a move is listed too). */
  readonly moved: boolean;
}

/** A hot key given a single-key slice. */
export interface PlannedIsolation {
  /** The hot key. */
  readonly key: string;
  /** Its point: the slice is `[point, point + 1)`. */
  readonly point: bigint;
  /** The id of its slice. */
  readonly sliceId: number;
  /** Its estimated load. */
  readonly load: number;
  /** Owners it is given (more than `replicas` in an available namespace). */
  readonly replicas: number;
}

/** A range whose owner `from` is replaced by `to`: the only change that counts against the budget. */
export interface PlannedMove {
  /** First point of the range. */
  readonly start: bigint;
  /** One past its last point. */
  readonly end: bigint;
  /** The owner that leaves. */
  readonly from: string;
  /** The owner that takes its place. */
  readonly to: string;
}

/** A range that gains (fill) or loses (release) an owner without a move. */
export interface OwnerChange {
  /** First point of the range. */
  readonly start: bigint;
  /** One past its last point. */
  readonly end: bigint;
  /** The owner added or dropped. */
  readonly owner: string;
  /** Fill: new slice, lost owner, more replicas. Release: owner not eligible, fewer replicas. */
  readonly why: "new" | "lost-owner" | "hot-key" | "ineligible" | "cooled";
}

/** The outcome of a pass. */
export interface RangePlan {
  /** The slices after the pass, in line order, with owners and estimated loads. */
  readonly slices: readonly RangeSliceState[];
  /** The next id to give a new slice. */
  readonly nextSliceId: number;
  /** Splits, in the order made. */
  readonly splits: readonly PlannedSplit[];
  /** Merges, in the order made. */
  readonly merges: readonly PlannedMerge[];
  /** Hot keys given a slice of their own. */
  readonly isolations: readonly PlannedIsolation[];
  /** Owner replacements, at most the churn budget. */
  readonly moves: readonly PlannedMove[];
  /** Owners added without a move. */
  readonly fills: readonly OwnerChange[];
  /** Owners dropped without a move. */
  readonly releases: readonly OwnerChange[];
  /** Share of the line (0 to 1) whose owners were replaced by moves. */
  readonly keyspaceMoved: number;
  /** Hottest executor's estimated load over the mean after the pass (1 when no load). */
  readonly maxOverMean: number;
  /** Fewest and most slice owners per executor after the pass. */
  readonly slicesPerExecutor: { readonly min: number; readonly max: number };
}
