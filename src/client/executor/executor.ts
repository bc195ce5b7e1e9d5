/**
 * The executor: heartbeats the service, starts a processor for every shard
 * the answer lists and stops it when the shard goes away.
 *
 * @module
 */
import { KeyRanges } from "./_key_ranges.ts";
import type { HeartbeatResponse__Output } from "../../wire/proto.ts";
import { backoffDelay, jittered } from "../common/backoff.ts";
import { deferred } from "../common/deferred.ts";
import { sleepOn } from "./clock.ts";
import { EventHub, type SubscribeOptions } from "./event_hub.ts";
import type { ExecutorOptions } from "./options.ts";
import { type ResolvedOptions, resolveOptions } from "./_resolve_options.ts";
import { ShardTable } from "./_shard_table.ts";
import { Deadlines } from "./_deadlines.ts";
import type { HeartbeatTransport } from "./transport.ts";
import type { ExecutorEvent, ExecutorState } from "./types.ts";
import {
  assignmentsOf,
  exclusiveLeaseOf,
  heartbeatRequest,
  lookUpOwner,
  preparingOf,
  quarantinedOf,
  sendHeartbeat,
} from "./_heartbeat_call.ts";
import { LeaseExpiredError } from "./errors.ts";
import { classifyCallError } from "../common/classify.ts";
import { ShardManagerError } from "../common/errors.ts";
import { FirstAnswer } from "./_first_answer.ts";
import type { StartOptions } from "./types.ts";
import { ExecutorObserver } from "./_observer.ts";
import { HintFollower } from "./_assignment_hints.ts";

/**
 * Runs a processor per assigned shard. Call {@linkcode Executor.start} to
 * begin heartbeating and {@linkcode Executor.shutdown} (or `await using`) to
 * drain and leave.
 *
 * The heartbeat loop never waits for processors: prepares, starts and stops
 * run in the background, concurrently, each bounded by its timeout.
 *
 * With a `prepare` hook the executor takes part in warm handover: a shard
 * planned to move here is prepared while its owner still serves it, and its
 * processor gets what `prepare` returned as `ctx.prepared` (typed `P`).
 *
 * @example Run a loop per shard
 * ```ts ignore
 * import { Executor } from "./executor.ts";
 *
 * await using executor = await new Executor({
 *   addresses: "127.0.0.1:7943",
 *   namespace: "orders",
 *   metadata: { address: "10.0.0.5:8080" },
 *   processor: (ctx) => {
 *     const timer = setInterval(() => ctx.reportLoad(Math.random()), 1_000);
 *     return { stop: () => clearInterval(timer) };
 *   },
 * }).start({ timeoutMs: 10_000 }); // rejects at once on an unknown namespace
 * for await (const event of executor.events()) console.log(event);
 * ```
 *
 * @example Warm handover: load a shard's state before it moves here
 * ```ts ignore
 * import { Executor } from "./executor.ts";
 *
 * await using executor = await new Executor({
 *   addresses: "127.0.0.1:7943",
 *   namespace: "orders",
 *   prepare: (ctx) => loadOrders(ctx.shardKey, ctx.signal), // while the old owner serves it
 *   processor: async (ctx) => {
 *     const orders = ctx.prepared ?? await loadOrders(ctx.shardKey, ctx.signal); // cold: load now
 *     return { stop: () => orders.save() };
 *   },
 * }).start();
 * declare function loadOrders(shard: string, signal: AbortSignal): Promise<{ save(): Promise<void> }>;
 * ```
 */
export class Executor<P = unknown> implements AsyncDisposable {
  /** This executor's id. */
  readonly id: string;
  /** Its namespace. */
  readonly namespace: string;
  readonly #o: ResolvedOptions;
  readonly #hub: EventHub<ExecutorEvent>;
  readonly #obs: ExecutorObserver;
  readonly #shards: ShardTable;
  /** Key-range namespaces: the slices held and their key loads. */
  readonly #ranges: KeyRanges;
  readonly #deadlines: Deadlines;
  #transport: HeartbeatTransport | undefined;
  /** Follows the service's assignment hints once a heartbeat was answered (see `assignmentHints`). */
  #hints: HintFollower | undefined;
  #status: ExecutorState = "ACTIVE";
  #started = false;
  #looping = false;
  #timer: unknown;
  /** The namespace's ownership lease when it is exclusive (learned from answers). */
  #leaseMs: number | undefined;
  /** Exclusive: the revision of the latest answer acted on, echoed in heartbeats. */
  #appliedRevision = "0";
  #kick = false;
  #failures = 0;
  #inflight: Promise<boolean> | undefined;
  #drained = deferred<void>();
  #shutdown: Promise<void> | undefined;
  /** What `start()` waits for: settles on the first answer or a permanent failure. */
  readonly #first: FirstAnswer;
  /** Cancels the heartbeat in flight when a start is abandoned. */
  readonly #abandoned = new AbortController();

  /** Validates `options` (throwing an `InvalidOptionsError`); sends nothing yet. */
  constructor(options: ExecutorOptions<P>) {
    this.#o = resolveOptions(options);
    this.id = this.#o.executorId;
    this.namespace = this.#o.namespace;
    this.#hub = new EventHub(this.#o.eventBufferSize, (count) => ({ type: "dropped", count }));
    this.#first = new FirstAnswer(
      this.#o.clock,
      `Executor ${this.id} in namespace "${this.namespace}"`,
    );
    this.#obs = new ExecutorObserver({
      ...options,
      namespace: this.namespace,
      executorId: this.id,
      addresses: options.transport ? [] : [options.addresses].flat(),
      clock: this.#o.clock,
      running: () => this.runningShards.length,
    });
    this.#ranges = new KeyRanges(() => this.#o.clock.now());
    this.#shards = new ShardTable(this.#o, {
      keyRanges: this.#ranges,
      emit: this.#emit,
      observer: this.#obs,
      mayStart: () => this.#status === "ACTIVE" && this.#looping,
      // Waiting for the service only keeps running processors alive until their shards move.
      onEmpty: () => {
        if (this.#status === "DRAINING") this.#drained.resolve();
      },
      // Exclusive: the next owner waits for a heartbeat that no longer reports the shard;
      // with hints on, send it now rather than at the next interval.
      exclusive: () => this.#leaseMs !== undefined,
      onReleased: (reason) => {
        if (reason === "unassigned" && this.#leaseMs !== undefined && this.#hints?.live) {
          this.#runSoon();
        }
      },
      // Warm handover: report PREPARED now, so that the switch takes round trips.
      onPrepared: () => {
        if (this.#looping) this.#runSoon();
      },
      currentOwner: (shardKey, signal) =>
        lookUpOwner(this.#transport, { namespace: this.namespace, shardKey }, {
          signal,
          timeoutMs: this.#o.heartbeatTimeoutMs,
        }),
    });
    this.#deadlines = new Deadlines({
      clock: this.#o.clock,
      onUnreachable: this.#o.onUnreachable,
      expire: () => this.#shards.dropAll("unreachable"),
      looping: () => this.#looping,
    });
  }

  /**
   * Starts heartbeating (the first heartbeat goes at once) and resolves with
   * `this` once the service has answered one. Transient failures (the
   * service unreachable or busy) are retried as long as it takes, or until
   * `options.timeoutMs` passes or `options.signal` aborts. A permanent
   * failure (an unknown namespace, a refused token, not a gRPC endpoint:
   * `error.retryable` false) rejects at once. Whenever it rejects before the
   * first answer, the executor is shut down (no timer or connection left)
   * and the error says why. Rejects with code `CLOSED` after
   * {@linkcode Executor.shutdown}: create a new executor instead. Calling it
   * again after a success resolves at once.
   */
  start(options: StartOptions = {}): Promise<this> {
    if (this.#shutdown) {
      const closed = new ShardManagerError(
        `Executor ${this.id} is shut down; create a new executor to start again`,
        { code: "CLOSED" },
      );
      return Promise.reject(closed);
    }
    if (!this.#started) {
      this.#started = this.#looping = true;
      this.#transport = this.#o.transport();
      this.#obs.started();
      void this.#loop();
    }
    return this.#untilAnswered(options);
  }

  /** Waits for the first answer within the bounds of `options`; abandons the start if they pass. */
  async #untilAnswered(options: StartOptions): Promise<this> {
    try {
      await this.#first.wait(options);
      return this;
    } catch (error) {
      if (!this.#first.isAnswered) this.#abandon();
      throw error;
    }
  }

  /** Stops a start that got no answer: no heartbeat, timer or connection is left. */
  #abandon(): void {
    if (this.#shutdown) return;
    this.#first.close("its start was abandoned");
    const { clock } = this.#o;
    this.#looping = false;
    this.#shutdown = Promise.resolve();
    clock.clearTimeout(this.#timer);
    this.#deadlines.clear();
    this.#abandoned.abort();
    void this.#hints?.close();
    this.#transport?.close();
    this.#hub.close();
    this.#obs.closed();
  }

  /** The status reported in heartbeats. */
  get status(): ExecutorState {
    return this.#status;
  }

  /** Shard keys whose processors are running (started and not stopping), sorted. */
  get runningShards(): string[] {
    return this.#shards.running();
  }

  /**
   * Events from now on; see {@linkcode ExecutorEvent}. Each iterator buffers
   * `eventBufferSize` events and drops the oldest when its consumer falls
   * behind (then yields `{ type: "dropped", count }`). Iterators end after
   * shutdown.
   */
  events(options: SubscribeOptions = {}): AsyncIterableIterator<ExecutorEvent> {
    return this.#hub.subscribe(options);
  }

  /**
   * Leaves gracefully: reports DRAINING, waits up to `drainTimeoutMs` until
   * the service has taken every shard away (their processors stop as usual),
   * stops what still runs, sends a final DRAINED heartbeat and closes the
   * connections. Never rejects; calling it again returns the same promise.
   */
  shutdown(): Promise<void> {
    if (this.#shutdown === undefined && this.#started) this.#obs.shuttingDown();
    return this.#shutdown ??= this.#drainAndClose();
  }

  /** Same as {@linkcode Executor.shutdown}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.shutdown();
  }

  async #drainAndClose(): Promise<void> {
    this.#first.close("it was shut down");
    try {
      if (this.#started) await this.#drain();
    } finally {
      await this.#hints?.close();
      this.#transport?.close();
      this.#obs.closed();
      this.#hub.close();
    }
  }

  async #drain(): Promise<void> {
    const { clock, drainTimeoutMs } = this.#o;
    this.#status = "DRAINING";
    const preparations = this.#shards.cancelPreparations("shutdown");
    this.#shards.reconcile();
    this.#runSoon();
    const timeout = new AbortController();
    await Promise.race([this.#drained.promise, sleepOn(clock, drainTimeoutMs, timeout.signal)]);
    timeout.abort();
    this.#looping = false;
    clock.clearTimeout(this.#timer);
    this.#deadlines.clearUnreachable();
    await this.#inflight;
    this.#deadlines.clearLease();
    await Promise.all([this.#shards.releaseAll("shutdown"), preparations]);
    this.#status = "DRAINED";
    await this.#heartbeat();
  }

  #emit = (event: ExecutorEvent): void => {
    this.#obs.event(event);
    this.#hub.emit(event);
  };

  async #loop(): Promise<void> {
    this.#timer = undefined;
    if (!this.#looping) return;
    const ok = await this.#heartbeat();
    if (!this.#looping) return;
    const { heartbeatIntervalMs: interval, random } = this.#o;
    const delay = this.#kick ? 0 : ok ? jittered(interval, 0.1, random) : backoffDelay(
      this.#failures - 1,
      { baseMs: interval / 4, maxMs: interval },
      random,
    );
    this.#kick = false;
    this.#timer = this.#o.clock.setTimeout(() => void this.#loop(), delay);
  }

  /** Sends the next heartbeat now, or right after the one in flight. */
  #runSoon(): void {
    if (this.#timer === undefined) {
      this.#kick = true;
      return;
    }
    this.#o.clock.clearTimeout(this.#timer);
    void this.#loop();
  }

  /** One heartbeat, after the one in flight; resolves with whether it succeeded. */
  #heartbeat(): Promise<boolean> {
    const run = async () => {
      const exclusive = this.#leaseMs !== undefined;
      const request = heartbeatRequest(
        this.#o,
        this.#status,
        this.#shards.reporters(),
        exclusive,
        exclusive ? this.#appliedRevision : "0",
        this.#ranges,
      );
      const sentAt = this.#o.clock.now();
      try {
        const answer = await sendHeartbeat(
          this.#transport!,
          request,
          this.#o,
          this.#abandoned.signal,
        );
        const leaseMs = exclusiveLeaseOf(answer);
        // An answer that comes after its own lease ran out cannot be acted on: the service
        // may already have given this executor's shards to another.
        if (leaseMs !== undefined && this.#o.clock.now() >= sentAt + leaseMs) {
          throw new LeaseExpiredError(leaseMs);
        }
        this.#obs.heartbeat(this.#o.clock.now() - sentAt);
        this.#onAnswer(answer, sentAt, leaseMs);
        return true;
      } catch (error) {
        this.#heartbeatFailed(error, this.#o.clock.now() - sentAt);
        return false;
      }
    };
    return this.#inflight = (this.#inflight ?? Promise.resolve(true)).then(run);
  }

  /**
   * The one place a heartbeat failure is classified and reported. Before the
   * first answer, a permanent failure ends the start (see `start()`).
   */
  #heartbeatFailed(failure: unknown, tookMs: number): void {
    const error = classifyCallError(failure, { namespace: this.namespace, operation: "Heartbeat" });
    this.#obs.heartbeat(tookMs, error);
    this.#first.lastError = error;
    this.#failures++;
    this.#emit({ type: "heartbeat-failed", error, failures: this.#failures });
    if (!this.#first.isAnswered && !error.retryable && this.#looping && this.#status === "ACTIVE") {
      this.#first.fail(error);
      this.#abandon();
    }
  }

  #onAnswer(answer: HeartbeatResponse__Output, sentAt: number, leaseMs: number | undefined): void {
    this.#first.answered();
    if (this.#failures > 0) this.#emit({ type: "heartbeat-recovered", failures: this.#failures });
    this.#failures = 0;
    this.#leaseMs = leaseMs;
    this.#ranges.follow(answer);
    this.#shards.assign(assignmentsOf(answer), preparingOf(answer), quarantinedOf(answer));
    this.#deadlines.armLease(sentAt, leaseMs);
    if (!this.#looping) return;
    // Hints (`assignmentHints`) from the first answer on, when the service knows us: each asks
    // for a heartbeat now (hints during one in flight make one more, no more).
    if (this.#o.assignmentHints) {
      this.#hints ??= new HintFollower(this.#transport!, {
        ...this.#o,
        onHint: () => this.#runSoon(),
      });
    }
    this.#deadlines.armUnreachable(sentAt);
    this.#shards.reconcile(true);
    // Acted on: every stop it asked for has begun, and stopping shards stay reported.
    if (leaseMs !== undefined) this.#appliedRevision = String(answer.revision ?? "0");
  }
}
