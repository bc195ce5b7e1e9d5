/**
 * The current owner of each shard a pass places, read once: owners as small
 * slot numbers, with each slot's executor id, eligible index and reports. For
 * a fixed namespace the slots are the state's own (`PlanInput.compact`), read
 * by shard number without a lookup by key; otherwise they are made here from
 * the owners map. Pure.
 *
 * @module
 */
import { numberedReports } from "../core/numbered_reports.ts";
import type { ShardReports } from "../core/types.ts";
import type { PlanInput } from "./plan_input.ts";

/** The owners of a pass's shards by position in its list. */
export interface CurrentOwners {
  /** The owner of `shards[i]`, if any. */
  at(i: number): string | undefined;
  /** The index of `shards[i]`'s owner among the eligible executors, -1 when it has none or is not eligible. */
  eligibleAt(i: number): number;
  /** The load `shards[i]`'s owner last reported for it: NaN when unknown (none, or not a load). */
  loadAt(i: number): number;
}

/**
 * The owners of `shards` (a fixed namespace's also as `numbers`), with
 * `eligible` mapping an eligible executor's id to its index.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceState } from "../state/namespace_state.ts";
 * import { currentOwners } from "./current_owners.ts";
 * import { planInput } from "./plan_input.ts";
 *
 * const state = new NamespaceState("ns", { heartbeatTtlMs: 2_000, shardNum: 3 });
 * state.apply({
 *   revision: 4,
 *   events: [{ type: "assignment", seq: 1, delta: { assign: { e1: ["2"] }, unassign: [], remove: [] } }],
 * }, 0);
 * const owners = currentOwners(planInput(state, 0), ["0", "2"], Int32Array.of(0, 2), new Map([["e1", 0]]));
 * assert.equal(owners.at(0), undefined);
 * assert.equal(owners.at(1), "e1");
 * assert.equal(owners.eligibleAt(1), 0);
 * ```
 */
export function currentOwners(
  input: PlanInput,
  shards: readonly string[],
  numbers: Int32Array | undefined,
  eligible: ReadonlyMap<string, number>,
): CurrentOwners {
  const compact = numbers !== undefined && input.compact !== undefined &&
    numbers.length === shards.length;
  const { ids, slots } = compact ? fromCompact(input, shards, numbers) : fromMap(input, shards);
  const eligibleOf = new Int32Array(ids.length).fill(-1);
  const reportsOf: (ShardReports | undefined)[] = [];
  for (const [slot, id] of ids.entries()) {
    if (id === undefined) continue;
    eligibleOf[slot] = eligible.get(id) ?? -1;
    reportsOf[slot] = input.executors.get(id)?.reports;
  }
  const loads = compact ? loadsByNumber(numbers, slots, reportsOf) : undefined;
  return {
    at: (i) => {
      const slot = slots[i]!;
      return slot >= 0 ? ids[slot] : undefined;
    },
    eligibleAt: (i) => {
      const slot = slots[i]!;
      return slot >= 0 ? eligibleOf[slot]! : -1;
    },
    loadAt: (i) => {
      if (loads) return loads[i]!;
      const slot = slots[i]!;
      const report = slot >= 0 ? reportsOf[slot]?.get(shards[i]!) : undefined;
      // A shard just switched in is still reported PREPARED: its load is not known yet.
      const load = report?.status === "PREPARED" ? undefined : report?.load;
      return load === undefined || !(load >= 0) ? NaN : load;
    },
  };
}

/**
 * Each listed shard's load as its owner reported it, read from the owners'
 * numbered reports (core/numbered_reports.ts) rather than by key: NaN when
 * unknown.
 */
function loadsByNumber(
  numbers: Int32Array,
  slots: Int32Array,
  reportsOf: readonly (ShardReports | undefined)[],
): Float64Array {
  const loads = new Float64Array(numbers.length).fill(NaN);
  // Where each shard number sits in the pass's list: usually all of them, in order (no array then).
  let end = 0;
  for (const n of numbers) if (n >= end) end = n + 1;
  const position = isIdentity(numbers) ? undefined : new Int32Array(end).fill(-1);
  if (position) { for (let i = 0; i < numbers.length; i++) position[numbers[i]!] = i; }
  for (const [slot, reports] of reportsOf.entries()) {
    if (reports === undefined) continue;
    const numbered = numberedReports(reports);
    for (let j = 0; j < numbered.numbers.length; j++) {
      const n = numbered.numbers[j]!;
      const i = n >= end ? -1 : position ? position[n]! : n;
      if (i < 0 || slots[i] !== slot) continue;
      const load = numbered.loads[j]!;
      loads[i] = load >= 0 ? load : NaN;
    }
  }
  return loads;
}

interface Slots {
  /** Slot → executor id. */
  readonly ids: readonly (string | undefined)[];
  /** Position in the pass's list → its owner's slot, -1 for none. */
  readonly slots: Int32Array;
}

/** True when `numbers` (increasing, as `shardsToPlace` lists them) is 0, 1, 2, …: every shard. */
function isIdentity(numbers: Int32Array): boolean {
  return numbers.length === 0 || numbers[numbers.length - 1] === numbers.length - 1;
}

/** From the state's arrays; a shard not kept there (several owners) is read from the map. */
function fromCompact(input: PlanInput, shards: readonly string[], numbers: Int32Array): Slots {
  const compact = input.compact!;
  const ids = [...compact.slotIds];
  // Every shard, all owned here: the state's own array serves (read only, within this pass).
  if (compact.complete && isIdentity(numbers) && numbers.length === compact.shardNum) {
    return { ids, slots: compact.ownerSlots };
  }
  const slots = new Int32Array(shards.length);
  let extra: Map<string, number> | undefined;
  for (let i = 0; i < shards.length; i++) {
    const n = numbers[i]!;
    const slot = n < compact.shardNum ? compact.ownerSlots[n]! : -1;
    if (slot >= 0 || compact.complete) {
      slots[i] = slot;
      continue;
    }
    const owner = input.owners.get(shards[i]!);
    slots[i] = owner === undefined ? -1 : slotFor(owner, ids, extra ??= slotsOf(ids));
  }
  return { ids, slots };
}

function fromMap(input: PlanInput, shards: readonly string[]): Slots {
  const ids: string[] = [];
  const known = new Map<string, number>();
  const slots = new Int32Array(shards.length);
  for (let i = 0; i < shards.length; i++) {
    const owner = input.owners.get(shards[i]!);
    slots[i] = owner === undefined ? -1 : slotFor(owner, ids, known);
  }
  return { ids, slots };
}

function slotsOf(ids: readonly (string | undefined)[]): Map<string, number> {
  const known = new Map<string, number>();
  for (const [slot, id] of ids.entries()) if (id !== undefined) known.set(id, slot);
  return known;
}

function slotFor(id: string, ids: (string | undefined)[], known: Map<string, number>): number {
  let slot = known.get(id);
  if (slot === undefined) {
    slot = ids.length;
    ids.push(id);
    known.set(id, slot);
  }
  return slot;
}
