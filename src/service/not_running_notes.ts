/**
 * When an executor's shards that it owns and does not run are worth a
 * history event: one event per executor when the set of such shards changes
 * and the new set has held for `settleMs` (a shard starting, or a
 * heartbeat's worth of lag, is never written down), at most one per executor
 * per `minGapMs`, and one more when it runs them all again.
 *
 * @module
 */
import type { HistoryEventInput } from "../core/history_event.ts";

/** A history event without its time. */
export type Note = Omit<HistoryEventInput, "atMs">;

/** Options of {@linkcode NotRunningNotes}. */
export interface NotRunningNotesOptions {
  /** How long a changed set must hold before it is recorded. @default {2000} */
  readonly settleMs?: number;
  /** Least time between two events of one executor. @default {5000} */
  readonly minGapMs?: number;
}

/** Most shard keys an event lists (the wire's `shard_keys` holds at most 100). */
const MAX_KEYS = 100;

const NONE: readonly string[] = Object.freeze([]);

interface Tracked {
  /** The set the last event recorded (empty: all running). */
  recorded: readonly string[];
  /** A set seen since `since` that differs from `recorded`. */
  candidate: readonly string[] | undefined;
  since: number;
  lastEventAt: number;
  round: number;
}

/**
 * Per-executor state of one namespace: call {@linkcode NotRunningNotes.observe}
 * for every executor judged in a round, then {@linkcode NotRunningNotes.endRound}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NotRunningNotes } from "./not_running_notes.ts";
 *
 * const notes = new NotRunningNotes({ settleMs: 2_000, minGapMs: 5_000 });
 * const owned = () => true;
 * assert.equal(notes.observe("e1", ["3"], 0, owned), undefined); // not settled yet
 * assert.equal(notes.observe("e1", ["3"], 2_000, owned)?.type, "shards_not_running");
 * assert.equal(notes.observe("e1", [], 3_000, owned), undefined);
 * assert.equal(notes.observe("e1", [], 7_000, owned)?.type, "shards_running_again");
 * ```
 */
export class NotRunningNotes {
  readonly #settleMs: number;
  readonly #minGapMs: number;
  readonly #executors = new Map<string, Tracked>();
  #round = 0;

  /** Starts with every executor taken to run all its shards. */
  constructor(options: NotRunningNotesOptions = {}) {
    this.#settleMs = options.settleMs ?? 2_000;
    this.#minGapMs = options.minGapMs ?? 5_000;
  }

  /**
   * Takes `shards` (sorted) as what `executorId` owns and does not run at
   * `now`; returns the event to record now, if any. `owns` tells whether it
   * still owns a shard (to tell a shard that runs again from one moved away).
   */
  observe(
    executorId: string,
    shards: readonly string[],
    now: number,
    owns: (shard: string) => boolean,
  ): Note | undefined {
    let t = this.#executors.get(executorId);
    if (t === undefined) {
      if (shards.length === 0) return undefined; // nothing to say, nothing to keep
      this.#executors.set(
        executorId,
        t = { recorded: NONE, candidate: undefined, since: now, lastEventAt: -Infinity, round: 0 },
      );
    }
    t.round = this.#round;
    if (sameKeys(shards, t.recorded)) {
      t.candidate = undefined;
      return undefined;
    }
    if (t.candidate === undefined || !sameKeys(shards, t.candidate)) {
      t.candidate = shards;
      t.since = now;
    }
    if (now - t.since < this.#settleMs || now - t.lastEventAt < this.#minGapMs) return undefined;
    const before = t.recorded;
    t.recorded = shards;
    t.candidate = undefined;
    t.lastEventAt = now;
    return note(executorId, before, shards, owns);
  }

  /** Forgets executors not observed since the last call (gone, or heartbeating elsewhere). */
  endRound(): void {
    for (const [id, t] of this.#executors) {
      if (t.round !== this.#round || (t.recorded.length === 0 && t.candidate === undefined)) {
        this.#executors.delete(id);
      }
    }
    this.#round++;
  }

  /** Executors tracked (with shards not running, recorded or about to be). */
  get size(): number {
    return this.#executors.size;
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function listOf(keys: readonly string[]): string {
  const shown = keys.slice(0, 10).join(", ");
  return keys.length > 10 ? `${shown}, … (${keys.length - 10} more)` : shown;
}

function note(
  executorId: string,
  before: readonly string[],
  now: readonly string[],
  owns: (shard: string) => boolean,
): Note {
  if (now.length === 0) {
    const moved = before.filter((s) => !owns(s)).length;
    return {
      type: "shards_running_again",
      executorId,
      shardKeys: before.slice(0, MAX_KEYS),
      text: `executor ${executorId} runs its shards again (${before.length} ` +
        `${before.length === 1 ? "was" : "were"} owned but not running` +
        `${moved > 0 ? `; ${moved} of them moved away meanwhile` : ""})`,
    };
  }
  const n = now.length;
  return {
    type: "shards_not_running",
    executorId,
    shardKeys: now.slice(0, MAX_KEYS),
    text: `executor ${executorId} owns ${n} shard${n === 1 ? "" : "s"} it does not run: ` +
      `${listOf(now)}${before.length > 0 ? ` (was ${before.length})` : ""}`,
  };
}
