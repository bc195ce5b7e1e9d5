/**
 * The shards an executor holds, kept in line with the latest answer: a slot
 * per assigned shard started, a slot per shard no longer assigned stopped.
 *
 * @module
 */
import type { ExecutorObserver } from "./_observer.ts";
import type { ResolvedOptions } from "./_resolve_options.ts";
import { ShardSlot } from "./_shard_slot.ts";
import type { ExecutorEvent, ReleaseReason } from "./types.ts";

/** What the table asks of its executor. */
export interface ShardTableHooks {
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
  #assigned = new Map<string, string>();

  /** An empty table. */
  constructor(options: ResolvedOptions, hooks: ShardTableHooks) {
    this.#o = options;
    this.#hooks = hooks;
  }

  /** How many slots are held (starting, running, failed or stopping). */
  get size(): number {
    return this.#slots.size;
  }

  /** The slots, for heartbeat reports. */
  slots(): IterableIterator<ShardSlot> {
    return this.#slots.values();
  }

  /** Shard keys whose processors are running (started and not stopping), sorted. */
  running(): string[] {
    return [...this.#slots.values()].filter((s) => s.state === "running").map((s) => s.shardKey)
      .sort();
  }

  /** Sets the assignment the next {@linkcode ShardTable.reconcile} follows. */
  assign(assigned: Map<string, string>): void {
    this.#assigned = assigned;
  }

  /** Forgets the assignment and stops every slot with `reason` (the service is out of reach). */
  dropAll(reason: ReleaseReason): void {
    this.#assigned = new Map();
    for (const slot of this.#slots.values()) void this.release(slot, reason);
  }

  /** Stops every slot with `reason`; resolves once all have stopped. */
  releaseAll(reason: ReleaseReason): Promise<void> {
    return Promise.all([...this.#slots.values()].map((slot) => this.release(slot, reason)))
      .then(() => {});
  }

  /**
   * Starts shards assigned and not held (and, on a heartbeat answer, retries
   * failed starts); stops shards held and not assigned.
   */
  reconcile(answered = false): void {
    const { observer, emit } = this.#hooks;
    if (this.#hooks.mayStart()) {
      for (const [key, token] of this.#assigned) {
        const held = this.#slots.get(key);
        if (held?.state === "failed" && answered) {
          observer.starting(key, held.fencingToken);
          held.start();
        }
        if (held !== undefined) continue;
        const slot = new ShardSlot(key, token, this.#o, emit);
        this.#slots.set(key, slot);
        emit({ type: "assigned", shardKey: key, fencingToken: token });
        observer.starting(key, token);
        slot.start();
      }
    }
    for (const slot of this.#slots.values()) {
      if (!this.#assigned.has(slot.shardKey)) void this.release(slot, "unassigned");
    }
    if (this.#slots.size === 0) this.#hooks.onEmpty();
  }

  /** Stops a slot once (later calls share the first call's promise), then forgets it. */
  release(slot: ShardSlot, reason: ReleaseReason): Promise<void> {
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
