/**
 * The mass-loss brake. When more than `share` of a namespace's serving
 * executors (ACTIVE, live, not drained) are lost within `windowMs`, and at
 * least `minLost` of them, placing all their shards on the survivors would
 * overload them. The brake then holds: the leader's passes make no balancing
 * move, and an executor takes at most its capacity, or, with none set, its
 * fair share of the fleet before the loss (plan/executor_capacity.ts); what
 * does not fit stays unowned, in plain view. It is released when the lost
 * executors serve again (or as many executors serve as before the loss), or
 * when an operator lifts it (`smctl namespace brake lift`).
 *
 * Only losses count: an executor that an operator drained or that reports
 * DRAINING or DRAINED left on purpose (a deploy, a drain the disruption budget
 * allowed), and its going quiet afterwards is not a loss.
 *
 * The brake's state lives with the leader's term, and its record in the
 * store (leader/process/brake_keeper.ts writes it, fenced): a new leader
 * {@linkcode MassLossBrake.restore restores} it, so a brake engaged stays
 * engaged across a failover and an operator's lift stays lifted. Otherwise a
 * new term starts released, and its first pass counts as lost the executors
 * that went stale within the window before it (by when its instance, which
 * followed the namespace all along, last heard from them): a failover in the
 * middle of a mass loss (a zone taking the leader with it) still engages the
 * brake. Executors lost before an operator's lift are not counted again.
 *
 * Only executors this instance has heard from since it loaded the namespace
 * (`witnessed`) count, as serving or as lost: an instance that just started
 * takes every executor it read from the store as seen at its load, and those
 * that were gone already would otherwise all turn "lost" together one TTL
 * later and trip the brake on a fleet that lost nothing.
 *
 * @module
 */
import type { ExecutorStatus } from "../../core/types.ts";
import type { HistoryNote } from "./history_notes.ts";
import type { BrakeRecord } from "../../store/brake_store.ts";

/** An executor as the brake sees it at one pass. */
export interface BrakeExecutor {
  /** Executor id. */
  readonly executorId: string;
  /** Heard from within the heartbeat TTL. */
  readonly alive: boolean;
  /** Reported status. */
  readonly status: ExecutorStatus;
  /** An operator drain applies to it. */
  readonly operatorDrained: boolean;
  /** Monotonic time its heartbeat was last recorded (a new term reads when the stale ones were lost). */
  readonly seenAtMs?: number;
  /** Wall-clock time of its last heartbeat record (compared with a lift's time). */
  readonly lastHeartbeatMs?: number;
  /**
   * Heard from since this instance loaded the namespace (its heartbeat record
   * is newer than the load). @default {true}
   */
  readonly witnessed?: boolean;
}

/** When the brake engages. */
export interface BrakeRule {
  /** More than this share of the serving executors lost (1: never). */
  readonly share: number;
  /** Within this long (monotonic ms). */
  readonly windowMs: number;
  /** And at least this many. */
  readonly minLost: number;
  /** An executor unheard for this long is lost (a new term dates past losses with it). @default {0} */
  readonly heartbeatTtlMs?: number;
}

/** The brake while it holds. */
export interface BrakeHold {
  /** Monotonic time it engaged. */
  readonly sinceMs: number;
  /** Executors serving just before the loss. */
  readonly executorsBefore: number;
  /** Executors lost (and not back) since it engaged. */
  readonly lost: ReadonlySet<string>;
}

/** Most executor ids a history note names. */
const NAMED = 5;

/**
 * Follows a namespace's serving executors from pass to pass and engages or
 * releases the brake; each change is returned as a history note.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MassLossBrake } from "./mass_loss_brake.ts";
 *
 * const brake = new MassLossBrake({ share: 0.3, windowMs: 4_000, minLost: 2 });
 * const fleet = (alive: number) =>
 *   ["a", "b", "c", "d"].map((id, i) => ({
 *     executorId: id, alive: i < alive, status: "ACTIVE" as const, operatorDrained: false,
 *   }));
 * brake.observe(fleet(4), 0);
 * assert.equal(brake.observe(fleet(2), 1_000)?.type, "brake_engaged");
 * assert.equal(brake.hold?.executorsBefore, 4);
 * assert.equal(brake.observe(fleet(4), 2_000)?.type, "brake_released");
 * assert.equal(brake.hold, undefined);
 * ```
 */
export class MassLossBrake {
  readonly #rule: BrakeRule;
  #serving: Set<string> | undefined;
  /** Lost executors not back yet → monotonic time they were found lost. */
  readonly #lost = new Map<string, number>();
  #hold: (BrakeHold & { readonly lost: Set<string> }) | undefined;
  #version = 0;
  /** Wall-clock time of an operator's lift that a restored record carried. */
  #liftedAtMs: number | undefined;

  /** A released brake that engages by `rule`. */
  constructor(rule: BrakeRule) {
    this.#rule = rule;
  }

  /** The brake while it holds; undefined when released. */
  get hold(): BrakeHold | undefined {
    return this.#hold;
  }

  /** Grows with every engage and release: a pass input like the state's. */
  get version(): number {
    return this.#version;
  }

  /**
   * Compares the executors at monotonic `now` with the last call's: returns
   * the note of an engage or a release, or undefined. The first call learns
   * the fleet, counting executors that went stale within the window before
   * it as lost then.
   */
  observe(fleet: Iterable<BrakeExecutor>, now: number): HistoryNote | undefined {
    const executors = [...fleet];
    const serving = new Set<string>();
    const alive = new Set<string>();
    const planned = new Set<string>();
    const unknown = new Set<string>();
    for (const e of executors) {
      if (e.witnessed === false) {
        unknown.add(e.executorId);
        continue;
      }
      if (e.alive) alive.add(e.executorId);
      const leaving = e.status === "DRAINING" || e.status === "DRAINED" || e.operatorDrained;
      if (leaving) planned.add(e.executorId);
      else if (e.alive && e.status === "ACTIVE") serving.add(e.executorId);
    }
    const before = this.#serving;
    this.#serving = serving;
    if (before === undefined) this.#datePastLosses(executors, now);
    for (const id of before ?? []) {
      const gone = !serving.has(id) && !alive.has(id) && !planned.has(id) && !unknown.has(id);
      if (gone) this.#lost.set(id, now);
    }
    for (const id of this.#lost.keys()) {
      if (serving.has(id) || planned.has(id)) this.#lost.delete(id);
    }
    const hold = this.#hold;
    if (hold) {
      for (const id of [...hold.lost]) if (serving.has(id)) hold.lost.delete(id);
      for (const id of this.#lost.keys()) hold.lost.add(id);
      if (hold.lost.size > 0 && serving.size < hold.executorsBefore) return undefined;
      return this.#release(now, "executors_returned", undefined);
    }
    for (const [id, at] of this.#lost) if (now - at > this.#rule.windowMs) this.#lost.delete(id);
    const lost = this.#lost.size;
    const executorsBefore = serving.size + lost;
    if (lost < this.#rule.minLost || lost <= this.#rule.share * executorsBefore) return undefined;
    this.#hold = { sinceMs: now, executorsBefore, lost: new Set(this.#lost.keys()) };
    this.#version++;
    const ids = [...this.#lost.keys()].sort();
    const named = ids.slice(0, NAMED).join(", ") +
      (ids.length > NAMED ? ` and ${ids.length - NAMED} more` : "");
    return {
      type: "brake_engaged",
      reason: "mass_loss",
      text: `Mass-loss brake engaged: ${lost} of ${executorsBefore} serving executors lost ` +
        `within ${Math.round(this.#rule.windowMs / 100) / 10}s (more than ` +
        `${Math.round(this.#rule.share * 100)}%): ${named}. No balancing moves; each ` +
        "executor takes at most its capacity (or its share of the fleet before the loss)",
    };
  }

  /** A new term's first pass: stale ACTIVE executors last heard within the window count as lost. */
  #datePastLosses(executors: readonly BrakeExecutor[], now: number): void {
    const ttl = this.#rule.heartbeatTtlMs ?? 0;
    for (const e of executors) {
      if (
        e.alive || e.status !== "ACTIVE" || e.operatorDrained || e.seenAtMs === undefined ||
        e.witnessed === false
      ) continue;
      // Gone before an operator lifted the brake: the lift covered it.
      if (this.#liftedAtMs !== undefined && (e.lastHeartbeatMs ?? 0) < this.#liftedAtMs) continue;
      const lostAt = e.seenAtMs + ttl;
      if (now - lostAt <= this.#rule.windowMs) this.#lost.set(e.executorId, Math.min(lostAt, now));
    }
  }

  /**
   * Continues the brake a previous leader recorded, before the first
   * {@linkcode observe}: an engaged record holds again (since its time, read
   * as monotonic from `now` and wall-clock `wallNow`); a lifted one keeps the
   * executors lost before the lift from engaging it again.
   */
  restore(record: BrakeRecord, now: number, wallNow: number): void {
    if (record.state === "lifted") this.#liftedAtMs = record.endedAtMs ?? wallNow;
    if (record.state !== "engaged" || this.#hold) return;
    this.#hold = {
      sinceMs: now - Math.max(0, wallNow - record.sinceMs),
      executorsBefore: record.executorsBefore,
      lost: new Set(record.lost),
    };
    this.#version++;
  }

  /**
   * Lifts the brake at monotonic `now` for `actor` (an operator): returns
   * the note, or undefined when it was not engaged. Losses seen so far are
   * forgotten, so only a new loss engages it again.
   */
  lift(now: number, actor: string): HistoryNote | undefined {
    if (!this.#hold) return undefined;
    this.#lost.clear();
    return this.#release(now, "lifted", actor);
  }

  #release(now: number, reason: "executors_returned" | "lifted", actor: string | undefined) {
    const hold = this.#hold!;
    this.#hold = undefined;
    this.#version++;
    const durationMs = Math.max(0, Math.round(now - hold.sinceMs));
    const how = reason === "lifted"
      ? `lifted by ${actor}`
      : "the lost executors returned (or as many serve as before the loss)";
    return {
      type: "brake_released",
      reason,
      durationMs,
      ...(actor === undefined ? {} : { actor }),
      text: `Mass-loss brake released after ${(durationMs / 1000).toFixed(1)}s: ${how}`,
    } satisfies HistoryNote;
  }
}
