/**
 * The state of one range-planning pass: the slices being planned, the
 * executors' estimated loads and slice counts, and the record of every change.
 * Private to the range planner.
 *
 * @module
 */
import type { RangeSettings } from "../../config/range_settings.ts";
import type { WorkSlice } from "./load_model.ts";
import type {
  OwnerChange,
  PlannedIsolation,
  PlannedMerge,
  PlannedMove,
  PlannedSplit,
  RangeExecutor,
} from "./types.ts";

/** An executor's running totals. */
export interface ExecutorTally {
  readonly id: string;
  readonly zone: string;
  load: number;
  slices: number;
}

/** The per-owner load of a slice: its load shared evenly by its owners. */
export function ownerLoad(w: WorkSlice): number {
  return w.owners.length === 0 ? 0 : w.load / w.owners.length;
}

/** One pass in progress. */
export class Pass {
  readonly settings: RangeSettings;
  readonly slices: WorkSlice[];
  readonly executors: ReadonlyMap<string, ExecutorTally>;
  /** Eligible executors sorted by id. */
  readonly ids: readonly string[];
  readonly available: boolean;
  /** Mean load per executor (0 when no load is known). */
  readonly mean: number;
  nextId: number;
  readonly splits: PlannedSplit[] = [];
  readonly merges: PlannedMerge[] = [];
  readonly isolations: PlannedIsolation[] = [];
  readonly moves: PlannedMove[] = [];
  readonly fills: OwnerChange[] = [];
  readonly releases: OwnerChange[] = [];

  constructor(
    settings: RangeSettings,
    slices: WorkSlice[],
    executors: readonly RangeExecutor[],
    available: boolean,
    nextId: number,
  ) {
    this.settings = settings;
    this.slices = slices;
    this.available = available;
    this.nextId = nextId;
    const sorted = [...executors].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.ids = sorted.map((e) => e.id);
    this.executors = new Map(
      sorted.map((e) => [e.id, { id: e.id, zone: e.zone ?? "", load: 0, slices: 0 }]),
    );
    const total = slices.reduce((sum, w) => sum + w.load, 0);
    this.mean = sorted.length === 0 ? 0 : total / sorted.length;
  }

  /** Owners a slice should have: `replicas`, or for a hot key's slice as many as its load asks. */
  wantedOwners(w: WorkSlice): number {
    const cap = this.ids.length;
    if (!this.available) return Math.min(1, cap);
    const k = this.settings.replicas;
    const single = w.slice.end - w.slice.start === 1n;
    if (!single || this.mean <= 0) return Math.min(k, cap);
    const share = this.settings.hotKeyReplicaShare * this.mean;
    const wanted = Math.max(k, Math.ceil(w.load / share));
    return Math.min(wanted, this.settings.maxHotKeyReplicas, cap);
  }

  /** Most slice owners per executor. */
  get maxSlicesPerExecutor(): number {
    return this.settings.slicesPerExecutor.max;
  }

  /** Slice count bounds for the whole line. */
  get sliceBounds(): { min: number; target: number; max: number } {
    const { min, target, max } = this.settings.slicesPerExecutor;
    const e = Math.max(1, this.ids.length);
    return { min: min * e, target: target * e, max: max * e };
  }

  /** Moves left in this pass's budget. */
  get budgetLeft(): number {
    return this.settings.churnBudget - this.moves.length;
  }

  /** Counts `w` on its owners (after it was built or changed). */
  count(w: WorkSlice, sign: 1 | -1): void {
    const share = ownerLoad(w);
    for (const id of w.owners) {
      const e = this.executors.get(id);
      if (e === undefined) continue;
      e.load += sign * share;
      e.slices += sign;
    }
  }

  /** Records `to` replacing `from` on `w`'s range (the caller changes the owners). */
  move(w: WorkSlice, from: string, to: string): void {
    this.moves.push({ start: w.slice.start, end: w.slice.end, from, to });
  }

  fill(w: WorkSlice, owner: string, why: OwnerChange["why"]): void {
    this.fills.push({ start: w.slice.start, end: w.slice.end, owner, why });
  }

  release(w: WorkSlice, owner: string, why: OwnerChange["why"]): void {
    this.releases.push({ start: w.slice.start, end: w.slice.end, owner, why });
  }
}
