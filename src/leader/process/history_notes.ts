/**
 * What a leader records in the namespace history: executors that join or are
 * lost (seen by comparing the live executors of one pass with the previous
 * pass's), and each committed assignment change with its moves per reason.
 *
 * @module
 */
import type { HistoryEventInput } from "../../core/history_event.ts";
import type { AssignmentDelta } from "../../core/types.ts";
import type { NamespaceView } from "../../state/namespace_view.ts";
import type { Release } from "./describe_change.ts";
import type { HandoverCounts } from "../../plan/mod.ts";

/** An event to record; the recorder adds the time. */
export type HistoryNote = Omit<HistoryEventInput, "atMs">;

/**
 * Past this many executors joining (or lost) between two passes, one note
 * tells of them all: a fleet of thousands coming up would otherwise flood
 * the history (and push older events out of its retention).
 */
export const MAX_NAMED = 10;

/** Executors named in a note about many. */
const NAMED_IN_SUMMARY = 5;

function someOf(ids: readonly string[]): string {
  const named = ids.slice(0, NAMED_IN_SUMMARY).join(", ");
  return `${named} and ${(ids.length - NAMED_IN_SUMMARY).toLocaleString("en-US")} more`;
}

function joinedMany(ids: readonly string[]): HistoryNote {
  const n = ids.length.toLocaleString("en-US");
  return { type: "executor_joined", text: `${n} executors joined: ${someOf(ids)}` };
}

function lostMany(state: NamespaceView, ids: readonly string[]): HistoryNote {
  let owned = 0;
  for (const id of ids) owned += state.shardsOf(id).size;
  const n = ids.length.toLocaleString("en-US");
  return {
    type: "executor_lost",
    text: `${n} executors lost or left (they held ${owned.toLocaleString("en-US")} shards): ` +
      someOf(ids),
  };
}

/** Follows the live executors from pass to pass and notes who joined and who was lost. */
export class MembershipTracker {
  #alive: Set<string> | undefined;

  /** Compares the live executors at monotonic `now` with the last call's. */
  observe(state: NamespaceView, now: number): HistoryNote[] {
    const alive = new Set<string>();
    for (const e of state.executors()) if (state.isAlive(e, now)) alive.add(e.executorId);
    const before = this.#alive;
    this.#alive = alive;
    if (before === undefined) return []; // the first pass of a term only learns the picture
    const joined = [...alive].filter((id) => !before.has(id)).sort();
    const lost = [...before].filter((id) => !alive.has(id)).sort();
    const notes: HistoryNote[] = [];
    if (joined.length > MAX_NAMED) notes.push(joinedMany(joined));
    else {
      for (const id of joined) {
        notes.push({ type: "executor_joined", executorId: id, text: `executor ${id} joined` });
      }
    }
    if (lost.length > MAX_NAMED) notes.push(lostMany(state, lost));
    else {
      for (const id of lost) {
        const owned = state.shardsOf(id).size;
        notes.push({
          type: "executor_lost",
          executorId: id,
          text: state.executor(id)
            ? `executor ${id} lost (no heartbeat within the TTL; it held ${owned} shards)`
            : `executor ${id} left`,
        });
      }
    }
    return notes;
  }
}

/**
 * The note for a committed change: shards that changed owner in all and per
 * reason (`placed` for shards that had no owner).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceState } from "../../state/namespace_state.ts";
 * import { assignmentNote } from "./history_notes.ts";
 *
 * const state = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
 * const note = assignmentNote(state, 3, 1, { assign: { a: ["1", "2"] }, unassign: [], remove: [] }, []);
 * assert.equal(note.moves, 2);
 * assert.deepEqual(note.movesByReason, { placed: 2 });
 * const warm = { prepared: 3, warm: 1, cold: 0, cancelled: 0, timedOut: 1 };
 * const prepared = assignmentNote(state, 4, 1, { assign: {}, unassign: [], remove: [] }, [], warm);
 * assert.match(prepared.text, /warm handovers: 3 prepared, 1 warm, 1 timed out/);
 * ```
 */
export function assignmentNote(
  state: NamespaceView,
  seq: number,
  term: number,
  delta: AssignmentDelta,
  releases: readonly Release[],
  handovers?: HandoverCounts,
): HistoryNote {
  const byReason: Record<string, number> = {};
  for (const r of releases) byReason[r.reason] = (byReason[r.reason] ?? 0) + r.shards;
  let placed = 0;
  for (const shards of Object.values(delta.assign)) {
    for (const shard of shards) if (state.ownerOf(shard) === undefined) placed++;
  }
  if (placed > 0) byReason.placed = placed;
  const moves = Object.values(byReason).reduce((sum, n) => sum + n, 0);
  const reasons = Object.entries(byReason).sort().map(([k, n]) => `${k} ${n}`).join(", ");
  return {
    type: "assignment_changed",
    term,
    moves,
    movesByReason: byReason,
    text: `assignment change ${seq}: ${moves} ${moves === 1 ? "shard" : "shards"} moved` +
      (reasons ? ` (${reasons})` : "") + handoverText(handovers),
  };
}

/** `; warm handovers: …` for a change that started, switched or cancelled some, else "". */
function handoverText(counts: HandoverCounts | undefined): string {
  if (counts === undefined) return "";
  const parts = [
    [counts.prepared, "prepared"],
    [counts.warm, "warm"],
    [counts.cold, "cold"],
    [counts.cancelled, "cancelled"],
    [counts.timedOut, "timed out"],
  ].filter(([n]) => (n as number) > 0).map(([n, what]) => `${n} ${what}`);
  return parts.length > 0 ? `; warm handovers: ${parts.join(", ")}` : "";
}
