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

/** An event to record; the recorder adds the time. */
export type HistoryNote = Omit<HistoryEventInput, "atMs">;

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
    const notes: HistoryNote[] = [];
    for (const id of [...alive].sort()) {
      if (!before.has(id)) {
        notes.push({ type: "executor_joined", executorId: id, text: `executor ${id} joined` });
      }
    }
    for (const id of [...before].sort()) {
      if (alive.has(id)) continue;
      const owned = state.shardsOf(id).size;
      notes.push({
        type: "executor_lost",
        executorId: id,
        text: state.executor(id)
          ? `executor ${id} lost (no heartbeat within the TTL; it held ${owned} shards)`
          : `executor ${id} left`,
      });
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
 * ```
 */
export function assignmentNote(
  state: NamespaceView,
  seq: number,
  term: number,
  delta: AssignmentDelta,
  releases: readonly Release[],
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
      (reasons ? ` (${reasons})` : ""),
  };
}
