/**
 * The shards an executor holds, kept in line with the latest answer: a slot
 * per assigned shard started, a slot per shard no longer assigned stopped;
 * with warm handover, a preparation per shard listed PREPARING, handed to
 * the shard's slot when it turns READY and cancelled when it is dropped.
 *
 * @module
 */
import type { KeyRanges } from "./_key_ranges.ts";
import type { ExecutorObserver } from "./_observer.ts";
import type { ResolvedOptions } from "./_resolve_options.ts";
import { Preparation, type PreparationHooks } from "./_preparation.ts";
import { ShardSlot } from "./_shard_slot.ts";
import type { ExecutorEvent, PrepareCancelReason, ReleaseReason } from "./types.ts";

/** What the table asks of its executor. */
export interface ShardTableHooks extends PreparationHooks {
  /** Emits an executor event. */
  readonly emit: (event: ExecutorEvent) => void;
  /** Timings, logs and spans of starts and stops. */
  readonly observer: ExecutorObserver;
  /** Whether assigned shards may be started now (the executor ACTIVE and looping). */
  readonly mayStart: () => boolean;
  /** After every reconciliation in which no slot is left. */
  readonly onEmpty: () => void;
  /** After a slot was released and forgotten. */
  readonly onReleased: (reason: ReleaseReason) => void;
  /** Whether the namespace is exclusive (no handoff grace there). */
  readonly exclusive: () => boolean;
  /** Key-range namespaces: the executor's slices, given to each processor. */
  readonly keyRanges?: KeyRanges;
}

/**
 * Shard key → slot, and the assignment (shard key → fencing token) the
 * slots follow.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ShardTable } from "./_shard_table.ts";
 * import { resolveOptions } from "./_resolve_options.ts";
 * import { ExecutorObserver } from "./_observer.ts";
 * import { systemClock } from "./clock.ts";
 *
 * const options = resolveOptions({ addresses: "x:1", namespace: "ns", processor: () => {} });
 * const observer = new ExecutorObserver({
 *   namespace: "ns", executorId: "e1", addresses: [], clock: systemClock, running: () => 0,
 * });
 * const table = new ShardTable(options, {
 *   emit: () => {}, observer, mayStart: () => true, onEmpty: () => {}, onReleased: () => {},
 *   onPrepared: () => {}, currentOwner: () => Promise.resolve(undefined), exclusive: () => false,
 * });
 * table.assign(new Map([["7", "101"]]));
 * table.reconcile();
 * await new Promise((resolve) => setTimeout(resolve, 0));
 * assert.deepEqual(table.running(), ["7"]);
 * table.assign(new Map()); // the next answer no longer lists it
 * table.reconcile();
 * await table.releaseAll("unassigned"); // waits for the stop begun above
 * assert.equal(table.size, 0);
 * ```
 */
export class ShardTable {
  readonly #o: ResolvedOptions;
  readonly #hooks: ShardTableHooks;
  readonly #slots = new Map<string, ShardSlot>();
  readonly #releasing = new WeakMap<ShardSlot, Promise<void>>();
  readonly #preparations = new Map<string, Preparation>();
  /** Slots moved away and still serving for `handoffGraceMs` → their timer. */
  readonly #graced = new Map<ShardSlot, unknown>();
  #assigned = new Map<string, string>();
  #preparing = new Map<string, string>();
  #quarantined: ReadonlySet<string> = new Set();

  /** An empty table. */
  constructor(options: ResolvedOptions, hooks: ShardTableHooks) {
    this.#o = options;
    this.#hooks = hooks;
  }

  /** How many slots are held (starting, running, failed or stopping). */
  get size(): number {
    return this.#slots.size;
  }

  /** The slots and the preparations, for heartbeat reports. */
  *reporters(): IterableIterator<ShardSlot | Preparation> {
    yield* this.#slots.values();
    yield* this.#preparations.values();
  }

  /** Shard keys whose processors are running (started and not stopping), sorted. */
  running(): string[] {
    return [...this.#slots.values()].filter((s) => s.state === "running").map((s) => s.shardKey)
      .sort();
  }

  /**
   * Sets the assignment the next {@linkcode ShardTable.reconcile} follows:
   * the shards to run, and the shards to prepare (warm handover), each by
   * shard key → fencing token; and the shards the service quarantined
   * (released with the reason `quarantined`, never retried).
   */
  assign(
    assigned: Map<string, string>,
    preparing: Map<string, string> = new Map(),
    quarantined: ReadonlySet<string> = new Set(),
  ): void {
    this.#assigned = assigned;
    this.#preparing = preparing;
    this.#quarantined = quarantined;
  }

  /** Forgets the assignment and stops every slot and preparation with `reason` (the service is out of reach). */
  dropAll(reason: ReleaseReason): void {
    this.#assigned = new Map();
    this.#preparing = new Map();
    void this.cancelPreparations(reason);
    for (const slot of this.#slots.values()) void this.release(slot, reason);
  }

  /** Calls off every preparation; resolves once each has settled and been disposed. */
  cancelPreparations(reason: PrepareCancelReason): Promise<void> {
    const all = [...this.#preparations.values()];
    this.#preparations.clear();
    return Promise.all(all.map((preparation) => preparation.cancel(reason))).then(() => {});
  }

  /** Stops every slot with `reason`; resolves once all have stopped. */
  releaseAll(reason: ReleaseReason): Promise<void> {
    return Promise.all([...this.#slots.values()].map((slot) => this.release(slot, reason)))
      .then(() => {});
  }

  /**
   * Starts shards assigned and not held (and, on a heartbeat answer, retries
   * failed starts whose backoff has passed); stops shards held and not
   * assigned (with the reason `quarantined` for those the service quarantined).
   */
  reconcile(answered = false): void {
    const { observer, emit } = this.#hooks;
    const mayStart = this.#hooks.mayStart();
    if (mayStart) this.#prepare();
    for (const [key, preparation] of this.#preparations) {
      if (this.#preparing.has(key) || this.#assigned.has(key)) continue;
      this.#preparations.delete(key);
      void preparation.cancel("handover-cancelled");
    }
    if (mayStart) {
      for (const [key, token] of this.#assigned) {
        const held = this.#slots.get(key);
        if (answered && held?.retryDue(this.#o.clock.now())) {
          observer.starting(key, held.fencingToken);
          held.start();
        }
        if (held !== undefined) continue;
        const preparation = this.#preparations.get(key);
        this.#preparations.delete(key);
        const slot = new ShardSlot(key, token, this.#o, emit, preparation, this.#hooks.keyRanges);
        this.#slots.set(key, slot);
        emit({ type: "assigned", shardKey: key, fencingToken: token });
        observer.starting(key, token);
        slot.start();
      }
    }
    for (const slot of this.#slots.values()) {
      if (this.#assigned.has(slot.shardKey)) this.#keep(slot);
      else if (this.#quarantined.has(slot.shardKey)) void this.release(slot, "quarantined");
      else if (!this.#graceFor(slot)) void this.release(slot, "unassigned");
    }
    if (this.#slots.size === 0) this.#hooks.onEmpty();
  }

  /**
   * Begins a preparation for each shard listed PREPARING that is neither
   * held nor being prepared for the same token (a handover planned again
   * comes with a new token: the old preparation is called off).
   */
  #prepare(): void {
    const hook = this.#o.prepare;
    if (hook === undefined) return;
    for (const [key, token] of this.#preparing) {
      if (this.#slots.has(key)) continue;
      const known = this.#preparations.get(key);
      if (known?.fencingToken === token) continue;
      void known?.cancel("handover-cancelled");
      const preparation = new Preparation(key, token, this.#o, this.#hooks);
      this.#preparations.set(key, preparation);
      preparation.begin(hook);
    }
  }

  /**
   * Available namespaces: a running slot moved away keeps serving for
   * `handoffGraceMs` (routers may not have switched yet), then is released
   * unless the shard came back. True while it is in its grace.
   */
  #graceFor(slot: ShardSlot): boolean {
    const graceMs = this.#o.handoffGraceMs;
    if (this.#graced.has(slot)) return true;
    if (graceMs <= 0 || slot.state !== "running" || this.#hooks.exclusive()) return false;
    this.#graced.set(
      slot,
      this.#o.clock.setTimeout(() => {
        this.#graced.delete(slot);
        if (this.#slots.get(slot.shardKey) !== slot || this.#assigned.has(slot.shardKey)) return;
        void this.release(slot, "unassigned");
      }, graceMs),
    );
    return true;
  }

  /** The shard is assigned again: a grace in progress ends without a release. */
  #keep(slot: ShardSlot): void {
    const timer = this.#graced.get(slot);
    if (timer === undefined) return;
    this.#o.clock.clearTimeout(timer);
    this.#graced.delete(slot);
  }

  /** Stops a slot once (later calls share the first call's promise), then forgets it. */
  release(slot: ShardSlot, reason: ReleaseReason): Promise<void> {
    this.#keep(slot);
    let releasing = this.#releasing.get(slot);
    if (releasing === undefined) {
      this.#hooks.observer.stopping(slot.shardKey, reason);
      releasing = slot.stop(reason).then(() => {
        if (this.#slots.get(slot.shardKey) === slot) this.#slots.delete(slot.shardKey);
        this.#hooks.emit({ type: "released", shardKey: slot.shardKey, reason });
        this.reconcile();
        this.#hooks.onReleased(reason);
      });
      this.#releasing.set(slot, releasing);
    }
    return releasing;
  }
}
