/**
 * Keeps a `NamespaceState` current: load a snapshot, follow the change feed,
 * reload when the feed asks to. Readers wait on its signals.
 *
 * @module
 */
import { type Clock, sleep, systemClock } from "../core/clock.ts";
import { TurnTaker } from "../core/event_loop_turn.ts";
import type { Logger } from "../core/logger.ts";
import { noopObserver, type ServiceObserver } from "../core/observer.ts";
import type { NamespaceEventBatch, Store } from "../store/store.ts";
import { HandoverTracker } from "./handover_tracker.ts";
import { VersionSignal } from "../streams/version_signal.ts";
import { NamespaceState, type NamespaceStateOptions } from "./namespace_state.ts";
import type { NamespaceView } from "./namespace_view.ts";

/** Longest run of applying watched changes before timers and sockets get a turn, ms. */
const APPLY_SLICE_MS = 50;

/** Options of {@linkcode NamespaceCache}. */
export interface NamespaceCacheOptions extends NamespaceStateOptions {
  /** The time source. @default {systemClock} */
  readonly clock?: Clock;
  /** Where to log. */
  readonly logger: Logger;
  /** Receives propagation and handover latencies. @default {noopObserver} */
  readonly observer?: ServiceObserver;
  /**
   * The picture to keep current. Whoever hands one in may also change it
   * (unit tests set one up by hand); everyone else reads it as the cache's
   * read-only {@linkcode NamespaceCache.state}. @default {a new NamespaceState}
   */
  readonly state?: NamespaceState;
}

/**
 * Hears, after a batch is applied, which executors' assignments it changed
 * (`"all"` after a snapshot was loaded), and the batch's revision.
 */
export type AssignmentListener = (executors: ReadonlySet<string> | "all", revision: number) => void;

/** A namespace's state, followed from the store. */
export class NamespaceCache {
  readonly #state: NamespaceState;
  /** Bumped when owners, executors or metadata changed (what watchers see). */
  readonly views: VersionSignal = new VersionSignal();
  /** Bumped when something a rebalance pass reacts to changed. */
  readonly triggers: VersionSignal = new VersionSignal();
  /** Bumped after every applied batch of changes. */
  readonly applied: VersionSignal = new VersionSignal();
  #store: Store;
  #clock: Clock;
  #logger: Logger;
  #synced = false;
  #feedConnected = true;
  #observer: ServiceObserver;
  #handovers = new HandoverTracker();
  readonly #assignmentListeners = new Set<AssignmentListener>();

  /** A cache of `namespace` in `store`; call `start` to fill it. */
  constructor(store: Store, namespace: string, options: NamespaceCacheOptions) {
    this.#store = store;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger.with({ namespace });
    this.#observer = options.observer ?? noopObserver;
    this.#state = options.state ?? new NamespaceState(namespace, options);
  }

  /** The current picture, read-only: only the change feed and {@linkcode forgiveOutage} change it. */
  get state(): NamespaceView {
    return this.#state;
  }

  /**
   * After a store outage that began at monotonic `sinceMs`: gives every
   * executor heard before it one TTL from `now` to be heard again (their
   * heartbeats could not be recorded meanwhile), and tells the leader's pass
   * (the triggers). Returns how many executors were renewed.
   */
  forgiveOutage(sinceMs: number, now: number): number {
    const renewed = this.#state.forgiveOutage(sinceMs, now);
    if (renewed > 0) this.triggers.bump();
    return renewed;
  }

  /**
   * True while the cache follows the store: false before the first load,
   * while reloading, and while its change feed reconnects to the store (the
   * picture is kept, but it may be behind).
   */
  get synced(): boolean {
    return this.#synced && this.#feedConnected;
  }

  /**
   * Calls `listener` after every applied batch that changes some executor's
   * assignment, with those executors (found at a cost proportional to the
   * batch, and only while someone listens), until `signal` aborts.
   */
  onAssignmentChange(listener: AssignmentListener, signal: AbortSignal): void {
    if (signal.aborted) return;
    this.#assignmentListeners.add(listener);
    signal.addEventListener("abort", () => this.#assignmentListeners.delete(listener), {
      once: true,
    });
  }

  /** Starts following; resolves once the first snapshot is loaded. */
  start(signal: AbortSignal): Promise<void> {
    const first = this.applied.wait(0, signal);
    this.#run(signal).catch((error) => this.#logger.error("cache loop ended", { error }));
    return first.then(() => {});
  }

  /** Resolves once the cache has applied store revision `revision`. */
  waitForRevision(revision: number, signal?: AbortSignal): Promise<void> {
    return this.waitUntil(() => this.#state.revision >= revision, signal);
  }

  /** Resolves once `condition` holds after some applied change (or at once). */
  async waitUntil(condition: () => boolean, signal?: AbortSignal): Promise<void> {
    let seen = this.applied.version;
    while (!condition()) seen = await this.applied.wait(seen, signal);
  }

  async #run(signal: AbortSignal): Promise<void> {
    let backoff = 100;
    while (!signal.aborted) {
      try {
        const snapshot = await this.#store.loadNamespace(this.#state.namespace);
        this.#state.load(snapshot, this.#clock.monotonic(), this.#clock.now());
        this.#handovers.clear();
        this.#synced = true;
        backoff = 100;
        this.#bumpAll();
        this.#tellAssignments("all", snapshot.revision);
        this.#feedConnected = true;
        const feed = this.#store.watchNamespace(this.#state.namespace, snapshot.revision, signal, {
          onConnection: (connected) => this.#connection(connected),
        });
        const turns = new TurnTaker(APPLY_SLICE_MS);
        for await (const batch of feed) {
          const touched = this.#assignmentListeners.size > 0 ? new Set<string>() : undefined;
          const change = this.#state.apply(batch, this.#clock.monotonic(), touched);
          this.#observe(batch);
          if (change.view) this.views.bump();
          if (change.rebalance) this.triggers.bump();
          this.applied.bump();
          if (touched !== undefined && touched.size > 0) {
            this.#tellAssignments(touched, batch.revision);
          }
          if (change.resync) {
            this.#logger.info("reloading namespace state", {
              reason: batch.events.find((e) => e.type === "resync"),
            });
            break;
          }
          // A large change (a placement of a million shards) takes the thread for a while:
          // let timers (lease keep-alives) and sockets have it before the next batch.
          await turns.takeIfDue();
        }
      } catch (error) {
        if (signal.aborted) break;
        this.#logger.warn("namespace state sync failed; retrying", { error, backoffMs: backoff });
      }
      this.#synced = false;
      if (signal.aborted) break;
      await sleep(backoff, signal, this.#clock).catch(() => {});
      backoff = Math.min(backoff * 2, 5_000);
    }
  }

  #tellAssignments(executors: ReadonlySet<string> | "all", revision: number): void {
    for (const listener of this.#assignmentListeners) {
      try {
        listener(executors, revision);
      } catch (error) {
        this.#logger.error("assignment listener failed", { error });
      }
    }
  }

  #connection(connected: boolean): void {
    this.#feedConnected = connected;
    if (connected) this.#logger.info("change feed connected again; it resumes where it stopped");
    else this.#logger.info("change feed lost its connection to the store; reconnecting");
  }

  #observe(batch: NamespaceEventBatch): void {
    const { propagated, handedOver } = this.#observer;
    if (!propagated && !handedOver) return;
    const namespace = this.#state.namespace;
    const now = this.#clock.now();
    for (const event of batch.events) {
      if (event.type === "assignment") {
        if (event.delta.atMs !== undefined) {
          propagated?.call(this.#observer, namespace, Math.max(0, now - event.delta.atMs));
        }
        if (handedOver) this.#handovers.assigned(event.delta);
      } else if (event.type === "reports" && handedOver) {
        for (const ms of this.#handovers.reported(event.executorId, event.reports, now)) {
          handedOver.call(this.#observer, namespace, ms);
        }
      }
    }
  }

  #bumpAll(): void {
    this.views.bump();
    this.triggers.bump();
    this.applied.bump();
  }
}
