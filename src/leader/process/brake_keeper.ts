/**
 * The mass-loss brake of one leader term, kept in the store as well as in
 * memory: the term {@linkcode BrakeKeeper.resume resumes} what the previous
 * leader recorded (a brake engaged still holds, a lift still stands), and
 * every engage, release and lift is written as the namespace's brake record,
 * fenced by the term's claim (store/brake_store.ts), so that a deposed leader
 * writes nothing and the next leader continues from the last record.
 *
 * @module
 */
import type { Clock } from "../../core/clock.ts";
import { type BrakeRecord, type BrakeStore, MAX_RECORDED_LOST } from "../../store/brake_store.ts";
import type { Fence } from "../../store/store.ts";
import type { HistoryNote } from "./history_notes.ts";
import type { BrakeExecutor, BrakeHold, MassLossBrake } from "./mass_loss_brake.ts";

/**
 * A term's brake with its store record.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BrakeKeeper } from "./brake_keeper.ts";
 * import { MassLossBrake } from "./mass_loss_brake.ts";
 * import type { BrakeRecord } from "../../store/brake_store.ts";
 * import type { Fence } from "../../store/store.ts";
 *
 * const records = new Map<string, BrakeRecord>();
 * const store = {
 *   readBrake: (ns: string) => Promise.resolve(records.get(ns)),
 *   writeBrake: (fence: Fence, r: BrakeRecord) => Promise.resolve(void records.set(fence.namespace, r)),
 * };
 * const clock = { now: () => 1_000_000, monotonic: () => 5_000 };
 * const fence = { namespace: "ns", revision: 7, claim: { term: 2, instanceId: "sm-1", sinceMs: 0 } };
 * const keeper = new BrakeKeeper(new MassLossBrake({ share: 0.3, windowMs: 4_000, minLost: 2 }), store, clock);
 * await keeper.resume(fence);
 * const fleet = (alive: number) =>
 *   ["a", "b", "c", "d"].map((id, i) => ({
 *     executorId: id, alive: i < alive, status: "ACTIVE" as const, operatorDrained: false,
 *   }));
 * keeper.observe(fleet(4), 5_000);
 * assert.equal(keeper.observe(fleet(2), 5_000)?.type, "brake_engaged");
 * await keeper.saved();
 * assert.equal(records.get("ns")?.state, "engaged");
 * assert.equal((await keeper.lift("ops"))?.type, "brake_released");
 * assert.deepEqual([records.get("ns")?.state, records.get("ns")?.liftedBy], ["lifted", "ops"]);
 * ```
 */
export class BrakeKeeper {
  readonly #brake: MassLossBrake;
  readonly #store: BrakeStore;
  readonly #clock: Clock;
  #fence: Fence | undefined;
  #record: BrakeRecord | undefined;
  /** The latest record while it is not known to be written (a failed write is tried again). */
  #pending: BrakeRecord | undefined;
  #writes: Promise<void> = Promise.resolve();

  /** Keeps `brake` in `store`, reading time from `clock`. */
  constructor(brake: MassLossBrake, store: BrakeStore, clock: Clock) {
    this.#brake = brake;
    this.#store = store;
    this.#clock = clock;
  }

  /** The brake while it holds; undefined when released. */
  get hold(): BrakeHold | undefined {
    return this.#brake.hold;
  }

  /** Grows with every engage and release (a pass input). */
  get version(): number {
    return this.#brake.version;
  }

  /** The brake's latest record (engaged, lifted or released), if there was one. */
  get record(): BrakeRecord | undefined {
    return this.#record;
  }

  /**
   * Starts the term fenced by `fence`: reads the namespace's brake record and
   * continues from it (before the term's first pass).
   */
  async resume(fence: Fence): Promise<void> {
    const record = await this.#store.readBrake(fence.namespace);
    this.#fence = fence;
    if (!record) return;
    this.#record = record;
    this.#brake.restore(record, this.#clock.monotonic(), this.#clock.now());
  }

  /** Observes the fleet at monotonic `now` (see `MassLossBrake.observe`); records a change. */
  observe(fleet: Iterable<BrakeExecutor>, now: number): HistoryNote | undefined {
    const note = this.#brake.observe(fleet, now);
    if (note) this.#noted(note);
    return note;
  }

  /**
   * Lifts the brake for `actor` and waits until the lift is recorded: the
   * note, or undefined when it did not hold or the term has not resumed yet.
   * Rejects with `FencedError` when the term lost the namespace.
   */
  async lift(actor: string): Promise<HistoryNote | undefined> {
    if (!this.#fence) return undefined;
    const note = this.#brake.lift(this.#clock.monotonic(), actor);
    if (!note) return undefined;
    this.#noted(note);
    await this.saved();
    return note;
  }

  /**
   * Resolves once the latest record is written; rejects with the write's
   * error. A record whose write failed (the store was unreachable) is written
   * again by the next call.
   */
  saved(): Promise<void> {
    if (this.#pending) this.#writes = this.#writes.catch(() => {}).then(() => this.#flush());
    return this.#writes;
  }

  async #flush(): Promise<void> {
    const record = this.#pending;
    const fence = this.#fence;
    if (!record || !fence) return;
    await this.#store.writeBrake(fence, record);
    if (this.#pending === record) this.#pending = undefined;
  }

  #noted(note: HistoryNote): void {
    const fence = this.#fence;
    if (!fence) return;
    const wallNow = this.#clock.now();
    const hold = this.#brake.hold;
    let record: BrakeRecord;
    if (note.type === "brake_engaged" && hold) {
      record = {
        state: "engaged",
        sinceMs: wallNow - Math.max(0, this.#clock.monotonic() - hold.sinceMs),
        reason: note.text,
        executorsBefore: hold.executorsBefore,
        lost: [...hold.lost].sort().slice(0, MAX_RECORDED_LOST),
        term: fence.claim.term,
      };
    } else {
      const last = this.#record;
      const lifted = note.reason === "lifted";
      record = {
        state: lifted ? "lifted" : "released",
        sinceMs: last?.sinceMs ?? wallNow,
        reason: last?.reason ?? "",
        executorsBefore: last?.executorsBefore ?? 0,
        lost: last?.lost ?? [],
        endedAtMs: wallNow,
        ...(lifted && note.actor !== undefined ? { liftedBy: note.actor } : {}),
        term: fence.claim.term,
      };
    }
    this.#record = record;
    this.#pending = record;
    void this.saved().catch(() => {}); // its caller awaits saved() for the outcome
  }
}
