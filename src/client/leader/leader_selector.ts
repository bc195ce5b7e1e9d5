/**
 * "Run this on exactly one node", after Apache Curator's LeaderSelector,
 * built on the executor SDK: the election is a fixed namespace with one
 * shard, and owning shard `"0"` means leading.
 *
 * @module
 */
import { hostName } from "../common/host_name.ts";
import { type Clock, sleepOn, systemClock } from "../executor/clock.ts";
import { EventHub } from "../executor/event_hub.ts";
import {
  Executor,
  type ShardContext,
  type ShardProcessor,
  type ShardStoppedError,
} from "../executor/mod.ts";
import type {
  LeaderEvent,
  LeaderSelector,
  LeaderSelectorOptions,
  LeadershipLease,
  TermEnd,
} from "./types.ts";

interface Term {
  readonly controller: AbortController;
  readonly signal: AbortSignal;
  run: Promise<void>;
}

/**
 * Joins the election in `options.namespace` and calls `takeLeadership` each
 * time this node becomes the leader.
 *
 * - Exactly one node leads at a time: the service gives shard `"0"` to one
 *   executor, and a node whose heartbeats fail for `suspendAfterMs` aborts
 *   `signal` before the service may move the shard (Curator's advice to treat
 *   SUSPENDED like LOST).
 * - Returning from `takeLeadership` gives leadership up: the node drains its
 *   executor (DRAINING), the service hands the shard to another node at once,
 *   and with `autoRequeue` the node rejoins with a fresh executor id.
 * - `close()` stops `takeLeadership` first and only then lets the shard go,
 *   so the next leader never overlaps this one.
 *
 * The service must configure the namespace as `{ type: fixed, shardNum: 1 }`.
 *
 * @example A singleton job
 * ```ts ignore
 * import { leaderSelector } from "./leader_selector.ts";
 *
 * await using selector = leaderSelector({
 *   addresses: ["127.0.0.1:7943"],
 *   namespace: "cleanup-leader",
 *   autoRequeue: true,
 *   takeLeadership: async (signal, lease) => {
 *     while (!signal.aborted) {
 *       await deleteExpiredRows({ fencingToken: lease.fencingToken, signal });
 *       await new Promise((r) => setTimeout(r, 60_000));
 *     }
 *   },
 * });
 * declare function deleteExpiredRows(o: { fencingToken: string; signal: AbortSignal }): Promise<void>;
 * ```
 */
export function leaderSelector(options: LeaderSelectorOptions): LeaderSelector {
  return new Selector(options);
}

class Selector implements LeaderSelector {
  readonly #o: LeaderSelectorOptions;
  readonly #clock: Clock;
  readonly #suspendAfterMs: number;
  readonly #interval: number;
  readonly #hub: EventHub<LeaderEvent>;
  #executor: Executor | undefined;
  #term: Term | undefined;
  #closing: Promise<void> | undefined;
  #work: Promise<void> = Promise.resolve();

  constructor(options: LeaderSelectorOptions) {
    if (typeof options.takeLeadership !== "function") {
      throw new TypeError(
        `takeLeadership must be a function, got ${typeof options.takeLeadership}`,
      );
    }
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.#suspendAfterMs = positive("suspendAfterMs", options.suspendAfterMs, 1_000);
    this.#interval = positive(
      "heartbeatIntervalMs",
      options.heartbeatIntervalMs,
      this.#suspendAfterMs / 4,
    );
    if (this.#interval >= this.#suspendAfterMs) {
      throw new RangeError(
        `heartbeatIntervalMs must be below suspendAfterMs (${this.#suspendAfterMs}), got ${this.#interval}`,
      );
    }
    this.#hub = new EventHub(
      options.eventBufferSize ?? 64,
      (count) => ({ type: "dropped", count }),
    );
    this.#join();
  }

  get hasLeadership(): boolean {
    return this.#term !== undefined && !this.#term.signal.aborted;
  }

  get participantId(): string | undefined {
    return this.#executor?.id;
  }

  requeue(): boolean {
    if (this.#closing) throw new Error("The leader selector is closed");
    if (this.#executor) return false;
    this.#join();
    return true;
  }

  events(options: { readonly signal?: AbortSignal } = {}): AsyncIterableIterator<LeaderEvent> {
    return this.#hub.subscribe(options);
  }

  close(): Promise<void> {
    return this.#closing ??= (async () => {
      const term = this.#term;
      if (term) {
        term.controller.abort(new Error("The leader selector is closing"));
        const timeout = new AbortController();
        const wait = this.#o.releaseTimeoutMs ?? 10_000;
        await Promise.race([term.run, sleepOn(this.#clock, wait, timeout.signal)]);
        timeout.abort();
      }
      const executor = this.#executor;
      this.#executor = undefined;
      await executor?.shutdown();
      await this.#work;
      this.#hub.close();
    })();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #join(): void {
    const o = this.#o;
    const base = o.name ?? hostName("leader");
    const executor: Executor = new Executor({
      addresses: o.addresses,
      namespace: o.namespace,
      executorId: `${base}-${crypto.randomUUID().slice(0, 8)}`,
      processor: (ctx) => this.#lead(executor, ctx),
      heartbeatIntervalMs: this.#interval,
      onUnreachable: { mode: "stop", afterMs: this.#suspendAfterMs },
      stopTimeoutMs: o.releaseTimeoutMs ?? 10_000,
      drainTimeoutMs: o.drainTimeoutMs ?? 5_000,
      clock: this.#clock,
      ...(o.metadata ? { metadata: o.metadata } : {}),
      ...(o.tls ? { tls: o.tls } : {}),
      ...(o.token ? { token: o.token } : {}),
      ...(o.transport ? { transport: o.transport } : {}),
      ...(o.logger === undefined ? {} : { logger: o.logger }),
      ...(o.meter === undefined ? {} : { meter: o.meter }),
      ...(o.tracer === undefined ? {} : { tracer: o.tracer }),
    });
    this.#executor = executor;
    executor.start();
    // After the current task, so that `events()` called right after creation sees it.
    queueMicrotask(() => this.#hub.emit({ type: "candidate", executorId: executor.id }));
  }

  #lead(executor: Executor, ctx: ShardContext): ShardProcessor {
    if (ctx.shardKey !== "0") {
      const error = new RangeError(
        `Namespace ${ctx.namespace} assigned shard ${JSON.stringify(ctx.shardKey)}: ` +
          `a leader selector needs a fixed namespace with shardNum: 1`,
      );
      this.#hub.emit({ type: "error", error });
      throw error;
    }
    const controller = new AbortController();
    const signal = AbortSignal.any([ctx.signal, controller.signal]);
    const lease: LeadershipLease = Object.freeze({
      fencingToken: ctx.fencingToken,
      executorId: ctx.executorId,
      namespace: ctx.namespace,
    });
    const term: Term = { controller, signal, run: Promise.resolve() };
    this.#term = term;
    this.#hub.emit({ type: "leading", lease });
    term.run = (async () => {
      let failed = false, error: unknown;
      try {
        await this.#o.takeLeadership(signal, lease);
      } catch (thrown) {
        failed = true;
        error = thrown;
      }
      if (this.#term === term) this.#term = undefined;
      const reason: TermEnd = controller.signal.aborted
        ? "closed"
        : ctx.signal.aborted
        ? (ctx.signal.reason as ShardStoppedError).reason === "unreachable" ? "suspended" : "lost"
        : failed
        ? "failed"
        : "returned";
      this.#hub.emit({ type: "not-leading", reason, ...(failed ? { error } : {}) });
      this.#afterTerm(executor, reason === "returned" || reason === "failed");
    })();
    return { stop: () => term.run };
  }

  /** Gives the shard up after a voluntary end; leaves the election unless `autoRequeue`. */
  #afterTerm(executor: Executor, voluntary: boolean): void {
    if (this.#closing || executor !== this.#executor) return;
    const requeue = this.#o.autoRequeue ?? false;
    if (requeue && !voluntary) return; // stay a candidate with the same executor
    this.#executor = undefined;
    this.#work = this.#work.then(async () => {
      await executor.shutdown();
      if (requeue && !this.#closing && this.#executor === undefined) this.#join();
    });
  }
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number of ms, got ${value}`);
  }
  return value;
}
