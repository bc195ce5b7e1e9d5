/**
 * "Run this on exactly one node", after Apache Curator's LeaderSelector,
 * built on the executor SDK: the election is a fixed namespace with one
 * shard, and owning shard `"0"` means leading.
 *
 * @module
 */
import { parseAddresses } from "../common/addresses.ts";
import { InvalidOptionsError, ShardManagerError } from "../common/errors.ts";
import { hostName } from "../common/host_name.ts";
import { type Clock, sleepOn, systemClock } from "../executor/clock.ts";
import { EventHub } from "../executor/event_hub.ts";
import {
  Executor,
  type ShardContext,
  type ShardProcessor,
  type ShardStoppedError,
  type StartOptions,
} from "../executor/mod.ts";
import type { LeaderEvent, LeaderSelectorOptions, LeadershipLease, TermEnd } from "./types.ts";
import { invalidLeaderNamespace, namespaceProblem } from "./_namespace_check.ts";

interface Term {
  readonly controller: AbortController;
  readonly signal: AbortSignal;
  run: Promise<void>;
}

/**
 * A participant in the election of `options.namespace`: it calls
 * `takeLeadership` each time this node becomes the leader.
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
 * - With `prepare`, the next leader is warmed up before the handover (warm
 *   handover): the hook runs on the node about to lead while the old
 *   leader still leads, and `takeLeadership` gets its value as
 *   `lease.prepared`.
 *
 * The namespace must be `{ type: fixed, shardNum: 1 }`: {@linkcode LeaderSelector.start}
 * refuses any other with code `INVALID_NAMESPACE`.
 *
 * @example A singleton job
 * ```ts ignore
 * import { LeaderSelector } from "./leader_selector.ts";
 *
 * await using selector = await new LeaderSelector({
 *   addresses: "127.0.0.1:7943",
 *   namespace: "cleanup-leader",
 *   autoRequeue: true,
 *   takeLeadership: async (signal, lease) => {
 *     while (!signal.aborted) {
 *       await deleteExpiredRows({ fencingToken: lease.fencingToken, signal });
 *       await new Promise((r) => setTimeout(r, 60_000));
 *     }
 *   },
 * }).start({ timeoutMs: 10_000 });
 * declare function deleteExpiredRows(o: { fencingToken: string; signal: AbortSignal }): Promise<void>;
 * ```
 */
export class LeaderSelector<P = unknown> implements AsyncDisposable {
  readonly #o: LeaderSelectorOptions<P>;
  readonly #addresses: readonly string[];
  readonly #clock: Clock;
  readonly #suspendAfterMs: number;
  readonly #interval: number;
  readonly #hub: EventHub<LeaderEvent>;
  #executor: Executor<P> | undefined;
  #term: Term | undefined;
  #closing: Promise<void> | undefined;
  #work: Promise<void> = Promise.resolve();
  #starting: Promise<this> | undefined;
  #startSettled = false;
  #refused: ShardManagerError | undefined;

  /** Checks `options` (throwing an `InvalidOptionsError`); joins nothing until `start()`. */
  constructor(options: LeaderSelectorOptions<P>) {
    if (typeof options.takeLeadership !== "function") {
      throw new InvalidOptionsError(
        "takeLeadership",
        `takeLeadership must be a function, got ${typeof options.takeLeadership}`,
      );
    }
    if (options.prepare !== undefined && typeof options.prepare !== "function") {
      throw new InvalidOptionsError(
        "prepare",
        `prepare must be a function when given, got ${typeof options.prepare}`,
      );
    }
    if (typeof options.namespace !== "string" || options.namespace === "") {
      throw new InvalidOptionsError(
        "namespace",
        `namespace must be a non-empty string, got ${JSON.stringify(options.namespace)}`,
      );
    }
    this.#addresses = options.transport ? [] : parseAddresses(options.addresses);
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.#suspendAfterMs = positive("suspendAfterMs", options.suspendAfterMs, 1_000);
    this.#interval = positive(
      "heartbeatIntervalMs",
      options.heartbeatIntervalMs,
      this.#suspendAfterMs / 4,
    );
    if (this.#interval >= this.#suspendAfterMs) {
      throw new InvalidOptionsError(
        "heartbeatIntervalMs",
        `heartbeatIntervalMs must be below suspendAfterMs (${this.#suspendAfterMs}), got ${this.#interval}`,
      );
    }
    this.#hub = new EventHub(
      options.eventBufferSize ?? 64,
      (count) => ({ type: "dropped", count }),
    );
  }

  /**
   * Joins the election and resolves with `this` once the service has
   * answered this node's first heartbeat (it may or may not lead yet).
   * Rejects at once, and closes the selector, when the namespace cannot
   * serve an election: unknown (`NAMESPACE_NOT_FOUND`), not
   * `{ type: fixed, shardNum: 1 }` (`INVALID_NAMESPACE`), or any other
   * permanent failure, as {@linkcode Executor.start} does; and after
   * `options.timeoutMs` or when `options.signal` aborts. Calling it again
   * returns the same promise.
   */
  start(options: StartOptions = {}): Promise<this> {
    if (this.#closing) {
      return Promise.reject(
        new ShardManagerError("The leader selector is closed", { code: "CLOSED" }),
      );
    }
    return this.#starting ??= this.#start(options).then(
      (started) => {
        this.#startSettled = true;
        return started;
      },
      async (error) => {
        this.#startSettled = true;
        this.#hub.emit({ type: "error", error });
        await this.close();
        throw error;
      },
    );
  }

  async #start(options: StartOptions): Promise<this> {
    const o = this.#o;
    if (!o.transport) {
      const tls = { ...o.tls, ...(o.token ? { token: o.token } : {}) };
      const problem = await namespaceProblem(
        this.#addresses,
        o.namespace,
        tls,
        options.timeoutMs ?? 5_000,
        options.signal,
      );
      if (problem) throw problem;
    }
    const executor = this.#executor ?? this.#join();
    await executor.start(options);
    // The processors of the first answer have run by now: a refused namespace shows.
    if (this.#refused !== undefined) throw this.#refused;
    return this;
  }

  /** Whether `takeLeadership` runs and its signal has not aborted. */
  get hasLeadership(): boolean {
    return this.#term !== undefined && !this.#term.signal.aborted;
  }

  /** The executor id of the current candidacy; `undefined` outside the election. */
  get participantId(): string | undefined {
    return this.#executor?.id;
  }

  /**
   * Rejoins the election when outside it (after a term without
   * `autoRequeue`). Returns whether it rejoined; throws (code `CLOSED`) once closed.
   */
  requeue(): boolean {
    if (this.#closing) {
      throw new ShardManagerError("The leader selector is closed", { code: "CLOSED" });
    }
    if (this.#executor) return false;
    this.#join();
    return true;
  }

  /** Leadership events from now on; each iterator drops its oldest when it falls behind. */
  events(options: { readonly signal?: AbortSignal } = {}): AsyncIterableIterator<LeaderEvent> {
    return this.#hub.subscribe(options);
  }

  /**
   * Leaves: aborts `takeLeadership` and waits (up to `releaseTimeoutMs`) for
   * it to return, then drains so the service hands the shard to another
   * node. Calling it again returns the same promise.
   */
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

  /** Same as {@linkcode LeaderSelector.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #join(): Executor<P> {
    const o = this.#o;
    const base = o.name ?? hostName("leader");
    const executor: Executor<P> = new Executor<P>({
      addresses: o.addresses,
      namespace: o.namespace,
      executorId: `${base}-${crypto.randomUUID().slice(0, 8)}`,
      processor: (ctx) => this.#lead(executor, ctx),
      heartbeatIntervalMs: this.#interval,
      onUnreachable: { mode: "stop", afterMs: this.#suspendAfterMs },
      stopTimeoutMs: o.releaseTimeoutMs ?? 10_000,
      drainTimeoutMs: o.drainTimeoutMs ?? 5_000,
      clock: this.#clock,
      ...(o.prepare ? { prepare: o.prepare } : {}),
      ...(o.prepareTimeoutMs === undefined ? {} : { prepareTimeoutMs: o.prepareTimeoutMs }),
      ...(o.metadata ? { metadata: o.metadata } : {}),
      ...(o.tls ? { tls: o.tls } : {}),
      ...(o.token ? { token: o.token } : {}),
      ...(o.transport ? { transport: o.transport } : {}),
      ...(o.logger === undefined ? {} : { logger: o.logger }),
      ...(o.meter === undefined ? {} : { meter: o.meter }),
      ...(o.tracer === undefined ? {} : { tracer: o.tracer }),
    });
    this.#executor = executor;
    // The first candidacy's start is awaited by `start()`; a permanent failure of a later
    // one (the namespace deleted meanwhile) is reported as an event.
    executor.start().catch((error) => {
      if (this.#startSettled) this.#hub.emit({ type: "error", error });
    });
    // After the current task, so that `events()` called right after creation sees it.
    queueMicrotask(() => this.#hub.emit({ type: "candidate", executorId: executor.id }));
    return executor;
  }

  /**
   * The processor of the election's shards. A shard other than `"0"` means
   * the namespace is not single-shard (seen only with a custom transport, or
   * a namespace changed after `start()`): the selector refuses it and closes.
   * Shard `"0"` waits one microtask first, so that a refusal from the same
   * answer comes before any term begins.
   */
  #lead(executor: Executor<P>, ctx: ShardContext<P>): Promise<ShardProcessor> {
    if (ctx.shardKey !== "0") {
      const error = invalidLeaderNamespace(
        ctx.namespace,
        `assigned shard ${JSON.stringify(ctx.shardKey)}`,
      );
      if (this.#refused === undefined) {
        this.#refused = error;
        this.#hub.emit({ type: "error", error });
        void this.close();
      }
      throw error;
    }
    return Promise.resolve().then(() => {
      if (this.#refused !== undefined) throw this.#refused;
      return this.#beginTerm(executor, ctx);
    });
  }

  #beginTerm(executor: Executor<P>, ctx: ShardContext<P>): ShardProcessor {
    const controller = new AbortController();
    const signal = AbortSignal.any([ctx.signal, controller.signal]);
    const lease: LeadershipLease<P> = Object.freeze({
      fencingToken: ctx.fencingToken,
      executorId: ctx.executorId,
      namespace: ctx.namespace,
      prepared: ctx.prepared,
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
  #afterTerm(executor: Executor<P>, voluntary: boolean): void {
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

/**
 * Creates a {@linkcode LeaderSelector} and starts it without waiting; a
 * failure to start is emitted as an `error` event and closes it.
 *
 * @deprecated Use `await new LeaderSelector(options).start()`, which
 * rejects on a wrong namespace or address instead of only emitting an event.
 */
export function leaderSelector<P = unknown>(options: LeaderSelectorOptions<P>): LeaderSelector<P> {
  const selector = new LeaderSelector(options);
  selector.start().catch(() => {}); // emitted as an `error` event
  return selector;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new InvalidOptionsError(name, `${name} must be a positive number of ms, got ${value}`);
  }
  return value;
}
