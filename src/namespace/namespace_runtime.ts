/**
 * One namespace inside one service instance, built once from its policy: the
 * followed state (cache), the spectator fan-out, the coalescer of new
 * ephemeral shards, the operator's pending cell moves, and the election loop
 * whose terms run the rebalance pipeline. Cadence's
 * `leader/namespace/manager.go` is the model: everything about a namespace at
 * run time starts here.
 *
 * ```
 * NamespaceRuntime ─ policy (read once from config)
 *   ├ cache: store feed → NamespaceState (read through NamespaceView)
 *   ├ fanout: latest-value pictures and deltas for watchers
 *   ├ hints: "your assignment changed" to the executors a change concerns
 *   ├ requester: first asks for ephemeral shards → few store writes
 *   ├ cellMoves: operator moves the leader's next pass reads
 *   ├ sliceEdits: operator slice edits the leader's next pass applies
 *   └ election loop → leader term: triggers → plan → fenced commit
 * ```
 *
 * @module
 */
import type { HistoryNote } from "../leader/process/history_notes.ts";
import type { AdvertisedInstance } from "../core/types.ts";
import type { Clock } from "../core/clock.ts";
import { indexKeys } from "../core/index_keys.ts";
import type { Logger } from "../core/logger.ts";
import type { ServiceObserver } from "../core/observer.ts";
import { runElectionLoop } from "../leader/election/election_loop.ts";
import { IdlePassGate } from "../leader/process/idle_pass_gate.ts";
import { RotationDigest } from "../leader/process/term_history.ts";
import type { StoreEvidence } from "../core/store_evidence.ts";
import { runLeaderTerm } from "../leader/process/leader_term.ts";
import { livenessOf, type NamespacePolicy } from "../policy/namespace_policy.ts";
import {
  type AssignmentHint,
  AssignmentHints,
  type NamespaceDelta,
  type NamespacePicture,
  type RoutedNamespace,
  ShardRequester,
  WatchFanout,
} from "../routing/mod.ts";
import { NamespaceCache } from "../state/namespace_cache.ts";
import type { NamespaceView } from "../state/namespace_view.ts";
import type { LeaderStore, Store } from "../store/mod.ts";
import { PendingCellMoves } from "./pending_cell_moves.ts";
import { PendingSliceEdits } from "./pending_slice_edits.ts";
import { type BrakeHold, MassLossBrake } from "../leader/process/mass_loss_brake.ts";
import { BrakeKeeper } from "../leader/process/brake_keeper.ts";
import type { BrakeRecord } from "../store/brake_store.ts";

export type { BrakeHold } from "../leader/process/mass_loss_brake.ts";

/** How instances campaign for a namespace (from `shardDistribution.election`). */
export interface ElectionSettings {
  /** Lease of a leader's session. */
  readonly electionTtlMs: number;
  /** A leader resigns after this long. */
  readonly leaderPeriodMs: number;
  /** Most random delay before campaigning. */
  readonly maxRandomDelayMs: number;
  /** Wait after a failed attempt. */
  readonly failedElectionCooldownMs: number;
}

/** What a namespace runtime is built with besides its policy. */
export interface NamespaceRuntimeOptions {
  /** The main store. */
  readonly store: Store;
  /** Where elections run. */
  readonly leaderStore: LeaderStore;
  /** This instance's id (recorded in leader claims). */
  readonly instanceId: string;
  /** Records the namespace's history while this instance leads it. */
  readonly history?: (note: HistoryNote) => void;
  /** Where this instance can be reached, for its leader claims. */
  readonly advertised?: () => AdvertisedInstance | undefined;
  /** How to campaign. */
  readonly election: ElectionSettings;
  /** Time source. */
  readonly clock: Clock;
  /** Where to log. */
  readonly logger: Logger;
  /** Receives observations for metrics. */
  readonly observer: ServiceObserver;
  /** When the store last answered, for the leader's passes (see rebalance_pass.ts). */
  readonly evidence?: StoreEvidence;
  /**
   * Awaited at the start of every leader term, before the first pass (the
   * health monitor's probe, so an outage just ended is forgiven first).
   */
  readonly beforeTerm?: () => Promise<void>;
}

/** A namespace's parts within one instance. */
export class NamespaceRuntime implements RoutedNamespace {
  /** The namespace's policy, read once from its configuration. */
  readonly policy: NamespacePolicy;
  /** Followed state. */
  readonly cache: NamespaceCache;
  /** Spectator fan-out. */
  readonly fanout: WatchFanout;
  /** Executors' assignment hint streams. */
  readonly hints: AssignmentHints;
  /** Coalesces requests for new ephemeral shards. */
  readonly requester: ShardRequester;
  /** Operator moves of a cells namespace not yet committed. */
  readonly cellMoves: PendingCellMoves = new PendingCellMoves();
  /** Key-range namespaces: operator edits of the slices the leader's next pass applies. */
  readonly sliceEdits: PendingSliceEdits = new PendingSliceEdits();
  readonly #options: NamespaceRuntimeOptions;
  #leading = false;
  /** The mass-loss brake of the current leader term (none when not leading). */
  #brake: BrakeKeeper | undefined;
  /** Skips idle passes, across this instance's terms (a re-won term plans nothing new). */
  readonly #gate: IdlePassGate;
  readonly #rotations = new RotationDigest();
  #loop: Promise<void> | undefined;
  #lifetime: AbortSignal = new AbortController().signal;

  /** Builds the namespace's parts; {@linkcode start} brings them up. */
  constructor(policy: NamespacePolicy, options: NamespaceRuntimeOptions) {
    this.policy = policy;
    this.#options = options;
    // The shard keys this namespace's records will name, built before any is read, so
    // that reading them reuses these strings (see core/index_keys.ts).
    const { keys } = policy;
    if (keys.kind === "fixed") indexKeys(keys.shardNum);
    this.#gate = new IdlePassGate(policy.budgets.executorRetentionMs);
    this.cache = new NamespaceCache(options.store, policy.name, {
      ...livenessOf(policy),
      ...(keys.kind === "fixed" ? { shardNum: keys.shardNum } : {}),
      clock: options.clock,
      logger: options.logger,
      observer: options.observer,
    });
    this.fanout = new WatchFanout(this.cache);
    this.hints = new AssignmentHints(policy.name, () => this.cache.state.revision);
    this.requester = new ShardRequester(options.store, policy.name, {
      now: () => options.clock.monotonic(),
    });
  }

  /** Namespace name. */
  get name(): string {
    return this.policy.name;
  }

  /** The namespace's picture as this instance follows it. */
  get view(): NamespaceView {
    return this.cache.state;
  }

  /** Whether this instance leads the namespace now. */
  get leading(): boolean {
    return this.#leading;
  }

  /**
   * Aborts when this runtime stops (the instance stops, or the namespace's
   * definition was changed or deleted): streams served from it end with it.
   */
  get lifetime(): AbortSignal {
    return this.#lifetime;
  }

  /**
   * Loads the namespace and follows it until `signal` aborts (its lifetime);
   * resolves once loaded. Campaigning starts with {@linkcode campaign}.
   */
  async load(signal: AbortSignal): Promise<void> {
    this.#lifetime = signal;
    this.cache.onAssignmentChange((executors, revision) => {
      this.hints.notify(executors, revision);
    }, signal);
    await this.cache.start(signal);
  }

  /** Campaigns and leads in a loop until `signal` aborts; {@linkcode stopped} waits for it. */
  campaign(signal: AbortSignal): void {
    this.#loop ??= this.#elect(signal);
  }

  /** Resolves once the election loop has ended (after its signal aborted). */
  async stopped(): Promise<void> {
    await this.#loop;
  }

  /**
   * The mass-loss brake while it holds, on the instance that leads the
   * namespace (leader/process/mass_loss_brake.ts); undefined otherwise.
   */
  get brake(): BrakeHold | undefined {
    return this.#brake?.hold;
  }

  /**
   * The mass-loss brake's latest record on the instance that leads the
   * namespace: engaged (since when, why), or how it was last released or
   * lifted (by whom, when); undefined otherwise or when it never engaged.
   */
  get brakeRecord(): BrakeRecord | undefined {
    return this.#brake?.record;
  }

  /**
   * Lifts the mass-loss brake for `actor`, records the lift in the store and
   * asks for a pass: true when it held, false when it was released already.
   * Only the leader holds a brake: another instance (or a term not started
   * yet) answers `undefined` (the caller forwards). Rejects with
   * `FencedError` when the leader lost the namespace meanwhile.
   */
  async liftBrake(actor: string): Promise<boolean | undefined> {
    const brake = this.#brake;
    if (!this.#leading || !brake) return undefined;
    if (!brake.hold) return false;
    const note = await brake.lift(actor);
    if (!note) return brake.hold ? undefined : false;
    this.#options.logger.warn("mass-loss brake lifted by an operator", { actor });
    this.#options.history?.(note);
    this.requestPass();
    return true;
  }

  /** Asks the leader for a pass soon (an input outside the store changed). */
  requestPass(): void {
    this.cache.triggers.bump();
  }

  /**
   * The namespace's pictures for a watcher: the current one, then every
   * change; ends when `signal` aborts or this runtime stops.
   */
  subscribe(signal: AbortSignal): ReadableStream<NamespacePicture> {
    return this.fanout.subscribe(AbortSignal.any([signal, this.#lifetime]));
  }

  /** Like {@linkcode subscribe}, but after the first picture only what changed. */
  subscribeDeltas(signal: AbortSignal): ReadableStream<NamespacePicture | NamespaceDelta> {
    return this.fanout.subscribeDeltas(AbortSignal.any([signal, this.#lifetime]));
  }

  /**
   * Hints to `executorId` that its assignment changed: the current revision at
   * once, then one per change that concerns it; ends when `signal` aborts or
   * this runtime stops (see routing/assignment_hints.ts).
   */
  watchAssignment(executorId: string, signal: AbortSignal): ReadableStream<AssignmentHint> {
    return this.hints.subscribe(executorId, AbortSignal.any([signal, this.#lifetime]));
  }

  /** True while this instance's picture follows the store (see `NamespaceCache.synced`). */
  get synced(): boolean {
    return this.cache.synced;
  }

  /** Resolves once the picture shows store revision `revision`. */
  waitForRevision(revision: number, signal?: AbortSignal): Promise<void> {
    return this.cache.waitForRevision(revision, signal);
  }

  /** Resolves once `condition` holds after some applied change (or at once). */
  waitUntil(condition: () => boolean, signal?: AbortSignal): Promise<void> {
    return this.cache.waitUntil(condition, signal);
  }

  /**
   * After a store outage that began at monotonic `sinceMs`: every executor
   * heard before it gets one TTL from `now`, and the leader's pass is woken.
   * Returns how many executors were renewed.
   */
  forgiveOutage(sinceMs: number, now: number): number {
    return this.cache.forgiveOutage(sinceMs, now);
  }

  #elect(signal: AbortSignal): Promise<void> {
    const { election, logger, leaderStore, store, instanceId, clock, observer } = this.#options;
    const policy = this.policy;
    return runElectionLoop({
      namespace: policy.name,
      instanceId,
      leaderStore,
      ...election,
      logger,
      clock,
      lead: async (leadership, termSignal) => {
        this.#leading = true;
        const massLoss = policy.budgets.massLoss;
        // A new term continues the brake's record (read once it holds the namespace) and
        // learns the fleet from its first pass.
        this.#brake = massLoss && policy.placement.kind === "balanced"
          ? new BrakeKeeper(
            new MassLossBrake({ ...massLoss, heartbeatTtlMs: policy.budgets.heartbeatTtlMs }),
            store,
            clock,
          )
          : undefined;
        try {
          // A term often starts right after a store outage: let the health monitor see the
          // store back (and forgive the outage, see outage_grace.ts) before the first pass.
          await this.#options.beforeTerm?.();
          if (termSignal.aborted) return;
          await runLeaderTerm(leadership, termSignal, {
            instanceId,
            ...(this.#options.advertised ? { advertised: this.#options.advertised } : {}),
            ...(this.#options.history ? { history: this.#options.history } : {}),
            cache: this.cache,
            store,
            policy,
            cellMoves: this.cellMoves,
            sliceEdits: this.sliceEdits,
            logger,
            clock,
            ...(this.#options.evidence ? { evidence: this.#options.evidence } : {}),
            onPass: (pass) => observer.pass?.(policy.name, pass),
            gate: this.#gate,
            rotations: this.#rotations,
            ...(this.#brake ? { brake: this.#brake } : {}),
          });
        } finally {
          this.#brake = undefined;
          this.#leading = false;
        }
      },
    }, signal);
  }
}
