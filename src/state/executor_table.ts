/**
 * The executors of a namespace picture, with the operator drains that match
 * them and the rules of liveness. Part of {@linkcode NamespaceState}, which
 * alone writes it.
 *
 * @module
 */
import { drainMatches, type ExecutorDrain } from "../core/executor_drain.ts";
import type { StoredExecutor } from "../store/store.ts";
import { type ExecutorRecord, loadedExecutor, newExecutor } from "./executor_view.ts";
import type { ExecutorView } from "./namespace_view.ts";

export type { ExecutorRecord } from "./executor_view.ts";

/** Times that decide liveness. */
export interface LivenessOptions {
  /** An executor unseen for longer is stale. */
  readonly heartbeatTtlMs: number;
  /**
   * Ownership lease of an exclusive namespace: a reader that loads a snapshot
   * then never takes an executor as long gone (by the wall clock) before twice
   * this has passed, so a lease is never cut short.
   */
  readonly ownershipLeaseMs?: number;
}

/**
 * Executors by id and executor drains by id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExecutorTable } from "./executor_table.ts";
 *
 * const table = new ExecutorTable({ heartbeatTtlMs: 2_000 });
 * const e = table.add("e1");
 * e.seenAtMs = 0;
 * assert.equal(table.isAlive(e, 2_000), true);
 * assert.equal(table.isAlive(e, 2_001), false);
 * ```
 */
export class ExecutorTable {
  readonly #executors = new Map<string, ExecutorRecord>();
  readonly #drains = new Map<string, ExecutorDrain>();
  readonly #liveness: LivenessOptions;

  /** An empty table judging liveness with `liveness`. */
  constructor(liveness: LivenessOptions) {
    this.#liveness = liveness;
  }

  /** One executor. */
  get(executorId: string): ExecutorRecord | undefined {
    return this.#executors.get(executorId);
  }

  /** Every executor. */
  values(): IterableIterator<ExecutorRecord> {
    return this.#executors.values();
  }

  /** Number of executors. */
  get size(): number {
    return this.#executors.size;
  }

  /** Adds an executor never seen before (ACTIVE, no metadata, no heartbeat) and returns it. */
  add(executorId: string): ExecutorRecord {
    const executor = newExecutor(executorId);
    this.#executors.set(executorId, executor);
    return executor;
  }

  /** Forgets an executor; true when it was known. */
  delete(executorId: string): boolean {
    return this.#executors.delete(executorId);
  }

  /** One drain, by id. */
  drain(id: string): ExecutorDrain | undefined {
    return this.#drains.get(id);
  }

  /** Every drain. */
  drains(): IterableIterator<ExecutorDrain> {
    return this.#drains.values();
  }

  /** Number of drains. */
  get drainCount(): number {
    return this.#drains.size;
  }

  /** Stores (`drain` set) or removes the drain `id`. */
  setDrain(id: string, drain: ExecutorDrain | undefined): void {
    if (drain) this.#drains.set(id, drain);
    else this.#drains.delete(id);
  }

  /**
   * True when the executor's last heartbeat is recent enough at monotonic
   * time `now`, or it is still within the grace a reader gave it on load.
   */
  isAlive(executor: ExecutorView, now: number): boolean {
    if (now - executor.seenAtMs <= this.#liveness.heartbeatTtlMs) return true;
    return executor.graceUntilMs !== undefined && now <= executor.graceUntilMs;
  }

  #aliveUntil(executor: ExecutorView): number {
    const byTtl = executor.seenAtMs + this.#liveness.heartbeatTtlMs;
    const grace = executor.graceUntilMs;
    return grace === undefined || grace < byTtl ? byTtl : grace;
  }

  /**
   * The earliest monotonic time after `now` at which some executor's liveness
   * runs out (it turns stale) or, for a stale one, `retentionMs` since it was
   * last seen runs out.
   */
  livenessDeadline(now: number, retentionMs: number): number {
    let deadline = Infinity;
    for (const e of this.#executors.values()) {
      const stale = this.#aliveUntil(e);
      const at = now <= stale ? stale : e.seenAtMs + retentionMs;
      if (at >= now && at < deadline) deadline = at;
    }
    return deadline;
  }

  /** The drains that apply to an executor with this id and metadata. */
  drainsOf(executorId: string, metadata: Readonly<Record<string, string>>): ExecutorDrain[] {
    const out: ExecutorDrain[] = [];
    for (const drain of this.#drains.values()) {
      if (drainMatches(drain, executorId, metadata)) out.push(drain);
    }
    return out;
  }

  /** True when a drain applies to `executor`. */
  isDrained(executor: ExecutorView): boolean {
    if (this.#drains.size === 0) return false;
    for (const drain of this.#drains.values()) {
      if (drainMatches(drain, executor.executorId, executor.metadata)) return true;
    }
    return false;
  }

  /**
   * Executors alive at monotonic `sinceMs` count as seen at `now` (the store
   * was unreachable in between); returns how many were renewed.
   */
  forgiveOutage(sinceMs: number, now: number): number {
    let renewed = 0;
    for (const e of this.#executors.values()) {
      if (e.seenAtMs < now && this.isAlive(e, sinceMs)) {
        e.seenAtMs = now;
        renewed++;
      }
    }
    return renewed;
  }

  /**
   * Replaces everything. Executors are taken as seen at `now` (a new reader
   * cannot know better) unless their last heartbeat is far older than the TTL
   * by the wall clock; after a silence of the whole namespace (the service
   * was down) those alive when it began get its length again as grace (see
   * {@linkcode loadedExecutor}).
   */
  load(
    executors: Iterable<StoredExecutor>,
    drains: Iterable<[string, ExecutorDrain]>,
    now: number,
    wallNow: number,
  ): void {
    this.#executors.clear();
    const stored = [...executors];
    let latest = -Infinity;
    for (const e of stored) latest = Math.max(latest, e.heartbeat?.timestampMs ?? -Infinity);
    for (const e of stored) {
      this.#executors.set(
        e.executorId,
        loadedExecutor(e, now, wallNow, this.#liveness, Math.min(latest, wallNow)),
      );
    }
    this.#drains.clear();
    for (const [id, drain] of drains) this.#drains.set(id, drain);
  }
}
