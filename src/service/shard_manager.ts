/**
 * One Shard Manager instance: a registry of namespace runtimes, the heartbeat
 * pipeline and the health monitor they share, and the API the transport
 * calls. Any instance answers any call; only the leader of a namespace
 * rebalances it. Everything about one namespace lives in its
 * `NamespaceRuntime`, built once from its policy (runtime_builder.ts).
 *
 * @module
 */
import type { Config, NamespaceConfig } from "../config/mod.ts";
import { type Clock, systemClock } from "../core/clock.ts";
import { ShuttingDownError } from "../core/errors.ts";
import { StoreEvidence } from "../core/store_evidence.ts";
import type { Logger } from "../core/logger.ts";
import { noopObserver, type ServiceObserver } from "../core/observer.ts";
import { HeartbeatResponder, type Heartbeats } from "../heartbeat/mod.ts";
import type { RequestLimits } from "../limits/request_limits.ts";
import * as routing from "../routing/mod.ts";
import type { DefinitionSource, LeaderStore, Store } from "../store/mod.ts";
import { Advertisement } from "./advertisement.ts";
import type { AdvertisedInstance } from "../core/types.ts";
import { NamespaceAdmin } from "./namespace_admin.ts";
import { NamespaceCatalog } from "./namespace_catalog.ts";
import { type FileNamespaceOutcome, seedFileNamespaces } from "./seed_file_namespaces.ts";
import { CellOperations } from "./cell_operations.ts";
import { ExecutorDrains } from "./executor_drains.ts";
import { HealthMonitor } from "./health_monitor.ts";
import { HistoryLog } from "./history_log.ts";
import { recordStoreOutages } from "./outage_history.ts";
import { OperatorAudit } from "./operator_audit.ts";
import { NamespaceRegistry } from "./namespace_registry.ts";
import { graceAfterOutages } from "./outage_grace.ts";
import { RunningShards } from "./running_shards.ts";
import { runtimeBuilder } from "./runtime_builder.ts";
import { runStorePulse, STORE_SILENCE_MS } from "./store_pulse.ts";
import { stopWithin } from "./stop_within.ts";
import { listLeaders } from "./leader_list.ts";
import { NamespaceOperations } from "./namespace_operations.ts";
import { heartbeatNamespaces } from "./heartbeat_namespaces.ts";

/** Options of {@linkcode ShardManager}. */
export interface ShardManagerOptions {
  /** Validated configuration. */
  readonly config: Config;
  /** Main store. */
  readonly store: Store;
  /** Leader store (may be the same cluster as the main store). */
  readonly leaderStore: LeaderStore;
  /** Where to log. */
  readonly logger: Logger;
  /** This instance's id. @default {a random UUID} */
  readonly instanceId?: string;
  /** Time source. @default {systemClock} */
  readonly clock?: Clock;
  /** Receives observations for metrics. @default {noopObserver} */
  readonly observer?: ServiceObserver;
}

/** One Shard Manager instance. */
export class ShardManager {
  /** This instance's id (recorded in leader claims). */
  readonly instanceId: string;
  /** The namespaces served. */
  readonly namespaces: NamespaceRegistry = new NamespaceRegistry();
  /** Drain, undrain and reset. */
  readonly operations: NamespaceOperations;
  /** Operator drains of executors. */
  readonly executorDrains: ExecutorDrains;
  /** Tenant moves of cells namespaces and blast-radius reports. */
  readonly cells: CellOperations;
  /** Store reachability and cache readiness, probed on a timer. */
  readonly health: HealthMonitor;
  /** The namespaces' history (event log in the store). */
  readonly history: HistoryLog;
  /** Where observations for metrics go. */
  readonly observer: ServiceObserver;
  /** Limits on requests, from the `limits` section of the configuration. */
  readonly limits: RequestLimits;
  /** The runtimes' definitions, followed in the store. */
  readonly catalog: NamespaceCatalog;
  /** The namespace RPCs: create, update, delete. */
  readonly admin: NamespaceAdmin;
  /** Records refused operator calls in the history. */
  readonly audit: OperatorAudit;
  /** The heartbeat: record, wait, answer (heartbeat/heartbeats.ts). */
  readonly heartbeats: Heartbeats;
  #options: ShardManagerOptions;
  #advertisement: Advertisement;
  #startedAt: { readonly now: number; readonly wallMs: number };
  #clock: Clock;
  #heartbeats: HeartbeatResponder;
  #stop = new AbortController();
  #health: Promise<void> | undefined;
  #pulse: Promise<void> | undefined;
  #notes: Promise<void> | undefined;
  /** What executors of exclusive namespaces run, as heard here (owned but not running). */
  readonly #running: RunningShards;
  /** When the main store last answered (a pulse of cheap reads): liveness is judged on it. */
  readonly #evidence: StoreEvidence;

  /** Builds the instance; `start()` brings it up. */
  constructor(options: ShardManagerOptions) {
    this.#options = options;
    const clock = this.#clock = options.clock ?? systemClock;
    this.#advertisement = new Advertisement(clock);
    this.#running = new RunningShards(clock);
    this.#startedAt = { now: clock.monotonic(), wallMs: clock.now() };
    this.instanceId = options.instanceId ?? crypto.randomUUID();
    this.history = new HistoryLog(options.store, {
      clock,
      logger: options.logger,
      writer: this.instanceId,
      signal: this.#stop.signal,
      ...(options.config.shardDistribution.history
        ? { retention: options.config.shardDistribution.history }
        : {}),
    });
    this.audit = new OperatorAudit(this.history, (name) => this.namespaces.has(name), clock);
    this.observer = options.observer ?? noopObserver;
    this.limits = options.config.limits;
    const { shardDistribution: sd } = options.config;
    const { process } = sd;
    const evidence = this.#evidence = new StoreEvidence({ silenceMs: STORE_SILENCE_MS, clock });
    this.health = new HealthMonitor(
      options.store,
      () => this.namespaces.all().every((ns) => ns.cache.synced),
      { clock, onProbe: (ms, ok) => this.observer.storeProbe?.(ms, ok), evidence },
    );
    const build = runtimeBuilder({
      config: options.config,
      store: options.store,
      leaderStore: options.leaderStore,
      instanceId: this.instanceId,
      limits: this.limits,
      clock,
      logger: options.logger,
      observer: this.observer,
      health: this.health,
      evidence,
      advertisement: this.#advertisement,
      history: this.history,
    });
    this.catalog = new NamespaceCatalog({
      definitions: options.store.definitions,
      registry: this.namespaces,
      build,
      logger: options.logger,
      clock,
    });
    this.admin = new NamespaceAdmin({
      store: options.store,
      catalog: this.catalog,
      registry: this.namespaces,
      heartbeatTtlMs: process.heartbeatTtlMs,
      logger: options.logger,
      clock,
      history: this.history,
    });
    this.heartbeats = this.#heartbeats = new HeartbeatResponder(options.store, {
      namespaces: heartbeatNamespaces(this.namespaces, this.#running.hear),
      limits: this.limits,
      // Every answered heartbeat is recorded within one flush (coalesced per executor), so an
      // executor's shards move at most TTL + TTL/8 (or TTL + 1 s) + a period after its last one,
      // and never before the TTL (see heartbeat_ingest.ts).
      flushMs: Math.min(process.heartbeatTtlMs / 8, 1_000),
      storeReachable: () => {
        const { checkedAtMs, storeReachable } = this.health.status;
        return checkedAtMs === 0 || storeReachable;
      },
      stop: this.#stop.signal,
      clock,
      logger: options.logger,
    });
    const lookup = (name: string) => this.namespaces.get(name);
    this.operations = new NamespaceOperations(options.store, lookup, clock, this.history);
    this.executorDrains = new ExecutorDrains(options.store, lookup, clock, this.history);
    this.cells = new CellOperations({ lookup, clock, store: options.store });
    recordStoreOutages(evidence, {
      history: this.history,
      clock,
      instance: () => this.#advertisement.get()?.instanceName ?? this.instanceId,
      namespaces: () =>
        this.namespaces.all().filter((n) => n.view.leader?.claim.instanceId === this.instanceId)
          .map((n) => n.name),
    });
    graceAfterOutages(this.health, () => this.namespaces.all().map((n) => n.cache.state), {
      clock,
      logger: options.logger,
      detectionMs: this.health.detectionMs,
      evidence,
    });
  }

  /**
   * The gRPC address the namespace's leader advertised in its claim, as this
   * instance's cache last saw it; undefined when unknown or when this
   * instance leads.
   */
  leaderAddress(namespace: string): string | undefined {
    if (!this.namespaces.has(namespace)) return undefined;
    const claim = this.namespaces.get(namespace).view.leader?.claim;
    if (!claim || claim.instanceId === this.instanceId) return undefined;
    return claim.grpcAddress;
  }

  /** Records where this instance can be reached (once its listeners are bound). */
  advertise(info: AdvertisedInstance): void {
    this.#advertisement.set(info);
  }

  /**
   * Seeds the file's namespaces into the store (when missing), then loads
   * every stored definition, starts their runtimes and follows changes.
   */
  async start(): Promise<void> {
    const signal = this.#stop.signal;
    await seedFileNamespaces(this.#options.config.shardDistribution.namespaces, {
      admin: this.admin,
      definitions: this.#options.store.definitions,
      logger: this.#options.logger,
      history: this.history,
    });
    await this.catalog.start(signal);
    this.#evidence.heard(); // every namespace was just loaded from the store
    this.#pulse = runStorePulse(this.#options.store, this.#evidence, signal, {
      clock: this.#clock,
    });
    this.#health = this.health.run(signal);
    this.#notes = this.#running.run(signal, {
      namespaces: () => this.namespaces.all(),
      time: () => this.#time(),
      record: (namespace, note) => void this.history.record(namespace, note),
    });
    // "shard manager started" is logged by app.ts once both listeners are bound.
  }

  /**
   * Applies the configuration file's namespaces again (on `SIGHUP`): new ones
   * are created, changed ones updated with the API's checks, removed ones
   * deleted after a drain; each outcome is logged and returned. A change that
   * cannot be applied is refused and leaves its namespace running as it was.
   */
  reloadFileNamespaces(namespaces: readonly NamespaceConfig[]): Promise<FileNamespaceOutcome[]> {
    return seedFileNamespaces(namespaces, {
      admin: this.admin,
      definitions: this.#options.store.definitions,
      logger: this.#options.logger,
      history: this.history,
      reload: true,
    });
  }

  /**
   * Resigns every leadership, drains the heartbeat pipeline and stops
   * following the store. Each step is waited for at most `STOP_WAIT_MS`;
   * what is still running then is logged by name and left to end when the
   * caller closes the store.
   */
  async stop(): Promise<void> {
    if (this.#stop.signal.aborted) return;
    this.#stop.abort(new ShuttingDownError());
    await stopWithin("leaderships and background work", this.#options.logger, this.#clock, {
      ...Object.fromEntries(
        this.namespaces.all().map((ns) => [`namespace ${ns.name}`, ns.stopped()]),
      ),
      "health monitor": this.#health,
      "store pulse": this.#pulse,
      "running-shard notes": this.#notes,
    });
    await stopWithin("the heartbeat pipeline", this.#options.logger, this.#clock, {
      "heartbeat writes": this.#heartbeats.close(),
    });
  }

  /**
   * The namespaces served, with where each definition comes from: the file's
   * in the file's order, then the API's by name.
   */
  listNamespaces(): (routing.NamespaceInfo & { source: DefinitionSource })[] {
    const inFile = this.#options.config.shardDistribution.namespaces.map((n) => n.name);
    const rank = (name: string) => {
      const index = inFile.indexOf(name);
      return index < 0 ? inFile.length : index;
    };
    const runtimes = this.namespaces.all().sort((a, b) =>
      rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
    );
    return runtimes.map(({ policy }) => ({
      ...routing.namespaceInfoOf(policy),
      source: this.catalog.source(policy.name) ?? "file",
    }));
  }

  /** Who owns a shard (creating an ephemeral one on first ask). */
  getShardOwner(
    namespace: string,
    key: string,
    signal?: AbortSignal,
  ): Promise<routing.ShardOwnerView> {
    return routing.getShardOwner(
      this.namespaces.get(namespace),
      key,
      this.#clock.monotonic(),
      signal,
      this.#clock,
    );
  }

  /** Who owns a shard, with its load and history; never creates it. */
  inspectShard(namespace: string, key: string): routing.ShardInspection {
    const ns = this.namespaces.get(namespace);
    const evidence = this.#running.evidence(ns);
    return routing.inspectShard(ns, key, evidence && { evidence, time: this.#time() });
  }

  /** Every executor of a namespace. */
  getNamespaceState(namespace: string): routing.ExecutorStateView[] {
    const ns = this.namespaces.get(namespace);
    return routing.namespaceState(ns.view, this.#time(), this.#running.evidence(ns));
  }

  /** A namespace's owner changes by reason, as this instance applied them since it started. */
  getShardMoves(
    namespace: string,
  ): Readonly<Record<"placement" | "balance" | "drain" | "loss", number>> {
    return { ...this.namespaces.get(namespace).view.moveCounts };
  }

  /** One executor. */
  getExecutorState(namespace: string, executorId: string): routing.ExecutorStateView {
    const ns = this.namespaces.get(namespace);
    return routing.executorState(ns.view, executorId, this.#time(), this.#running.evidence(ns));
  }

  /**
   * Who leads each namespace now, sorted by namespace: the election's winner
   * (from the leader store), with the start of its term from its claim.
   */
  listLeaders(): Promise<routing.LeaderView[]> {
    return listLeaders({
      runtimes: this.namespaces.names().map((name) => this.namespaces.get(name)),
      leaderStore: this.#options.leaderStore,
      instanceId: this.instanceId,
      advertised: this.#advertisement.get(),
      storeLostSince: this.storeLostSince(),
      lastGoodReadMs: () => this.health.status.lastGoodReadMs,
      clock: this.#clock,
    });
  }

  /** Aggregates of a namespace, for metrics. */
  namespaceStats(namespace: string): routing.NamespaceStats {
    const ns = this.namespaces.get(namespace);
    const running = this.#running.evidence(ns);
    return routing.namespaceStats(ns.view, this.#time(), {
      ...(ns.policy.keys.kind === "fixed" ? { shardNum: ns.policy.keys.shardNum } : {}),
      ...(running ? { running } : {}),
    });
  }

  /** Whether this instance leads `namespace` now. */
  isLeading(namespace: string): boolean {
    return this.namespaces.has(namespace) && this.namespaces.get(namespace).leading;
  }

  #time(): routing.InspectionTime {
    const lost = this.storeLostSince();
    const now = this.#clock.monotonic();
    return {
      now,
      wallNow: this.#clock.now(),
      ...(lost === undefined ? {} : { storeLostSince: lost }),
      ...(this.#pulse === undefined ? {} : { vouchedNow: this.#evidence.vouchedAt(now) }),
    };
  }

  /**
   * While the main store is unreachable (its pulse unanswered for a second, or
   * the last probe failed): its last answer, on both clocks (the instance's
   * start when there was none). Undefined while the store answers.
   */
  storeLostSince(): { readonly now: number; readonly wallMs: number } | undefined {
    const status = this.health.status;
    if (status.checkedAtMs === 0 || status.storeReachable) return undefined;
    return {
      now: status.lastGoodReadMonotonic ?? this.#startedAt.now,
      wallMs: status.lastGoodReadMs ?? this.#startedAt.wallMs,
    };
  }

  /** Open subscriptions to `namespace`'s pictures: gRPC watch streams, dashboards, in-process. */
  watchSubscribers(namespace: string): number {
    return this.namespaces.get(namespace).fanout.subscribers;
  }

  /** A stream of the namespace picture: the current one, then every change. */
  watchNamespace(namespace: string, signal: AbortSignal): ReadableStream<routing.NamespacePicture> {
    const ns = this.namespaces.get(namespace);
    // Ends when the runtime does (a changed definition): the spectator reconnects to the new one.
    return ns.fanout.subscribe(AbortSignal.any([signal, this.#stop.signal, ns.lifetime]));
  }

  /** Like `watchNamespace`, but after the first picture only what changed. */
  watchNamespaceDeltas(
    namespace: string,
    signal: AbortSignal,
  ): ReadableStream<routing.NamespacePicture | routing.NamespaceDelta> {
    const ns = this.namespaces.get(namespace);
    return ns.fanout.subscribeDeltas(AbortSignal.any([signal, this.#stop.signal, ns.lifetime]));
  }
}
