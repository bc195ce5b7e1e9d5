/**
 * One Shard Manager instance, composed: a private registry of namespace
 * runtimes, the heartbeat pipeline and the health monitor they share, and
 * the use cases the transport calls (`use_cases.ts`: routing reads,
 * operations, drains, cells, admin, history, heartbeats). Any instance
 * answers any call; only the leader of a namespace rebalances it.
 * Everything about one namespace lives in its `NamespaceRuntime`, built once
 * from its policy (runtime_builder.ts).
 *
 * @module
 */
import type { Config, NamespaceConfig, NamespaceSpec } from "../config/mod.ts";
import { type Clock, systemClock } from "../core/clock.ts";
import { ShuttingDownError } from "../core/errors.ts";
import { StoreEvidence } from "../core/store_evidence.ts";
import type { Logger } from "../core/logger.ts";
import { noopObserver, type ServiceObserver } from "../core/observer.ts";
import { HeartbeatResponder, type Heartbeats } from "../heartbeat/mod.ts";
import type { RequestLimits } from "../limits/request_limits.ts";
import type { LeaderStore, Store } from "../store/mod.ts";
import { Advertisement } from "./advertisement.ts";
import type { AdvertisedInstance } from "../core/types.ts";
import { NamespaceAdmin } from "../namespace/namespace_admin.ts";
import { NamespaceCatalog } from "../namespace/namespace_catalog.ts";
import {
  type FileNamespaceOutcome,
  seedFileNamespaces,
} from "../namespace/seed_file_namespaces.ts";
import { CellOperations } from "./cell_operations.ts";
import { BrakeOperations } from "./brake_operations.ts";
import { SliceOperations } from "./slice_operations.ts";
import { ExecutorDrains } from "./executor_drains.ts";
import { StopChecks } from "./stop_checks.ts";
import { HealthMonitor } from "./health_monitor.ts";
import { runHistorySweep } from "./history_sweep.ts";
import { HistoryLog } from "./history_log.ts";
import { recordStoreOutages } from "./outage_history.ts";
import { OperatorAudit } from "./operator_audit.ts";
import { NamespaceRegistry } from "../namespace/namespace_registry.ts";
import { graceAfterOutages } from "./outage_grace.ts";
import { RunningShards } from "./running_shards.ts";
import { runtimeBuilder } from "../namespace/runtime_builder.ts";
import { runStorePulse, STORE_SILENCE_MS } from "./store_pulse.ts";
import { stopWithin } from "./stop_within.ts";
import { NamespaceOperations } from "./namespace_operations.ts";
import { heartbeatNamespaces } from "./heartbeat_namespaces.ts";
import { RoutingReads } from "./routing_reads.ts";
import type { NamespaceDirectory, Service } from "./use_cases.ts";

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
  /** The main store's format, as `store.format.open()` read it. @default {NEWEST_STORE_FORMAT} */
  readonly storeFormat?: number;
}

/**
 * One Shard Manager instance: the composition root. It builds the use cases
 * the transport calls ({@linkcode Service}) over a private registry of
 * namespace runtimes, and owns start and stop.
 */
export class ShardManager implements Service {
  /** This instance's id (recorded in leader claims). */
  readonly instanceId: string;
  /** The namespaces served, read-only. */
  readonly namespaces: NamespaceDirectory;
  /** Reads and watches, answered from the namespace caches. */
  readonly routing: RoutingReads;
  /** Drain, undrain and reset. */
  readonly operations: NamespaceOperations;
  /** Operator drains of executors. */
  readonly executorDrains: ExecutorDrains;
  /** "May these executors stop now?", from the drains' disruption budget. */
  readonly stopChecks: StopChecks;
  /** Tenant moves of cells namespaces and blast-radius reports. */
  readonly cells: CellOperations;
  /** Mass-loss brakes, lifted by operators. */
  readonly brakes: BrakeOperations;
  /** Slice edits of key-range namespaces, by operators. */
  readonly slices: SliceOperations;
  /** Store reachability and cache readiness, probed on a timer. */
  readonly health: HealthMonitor;
  /** The namespaces' history (event log in the store). */
  readonly history: HistoryLog;
  /** Where observations for metrics go. */
  readonly observer: ServiceObserver;
  /** Limits on requests, from the `limits` section of the configuration. */
  readonly limits: RequestLimits;
  /** The namespace RPCs: create, update, delete. */
  readonly admin: NamespaceAdmin;
  /** Records refused operator calls in the history. */
  readonly audit: OperatorAudit;
  /** The heartbeat: record, wait, answer (heartbeat/heartbeats.ts). */
  readonly heartbeats: Heartbeats;
  readonly #registry = new NamespaceRegistry();
  readonly #catalog: NamespaceCatalog;
  #options: ShardManagerOptions;
  #advertisement: Advertisement;
  #clock: Clock;
  #heartbeats: HeartbeatResponder;
  #stop = new AbortController();
  #health: Promise<void> | undefined;
  #pulse: Promise<void> | undefined;
  #notes: Promise<void> | undefined;
  #sweep: Promise<void> | undefined;
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
    this.audit = new OperatorAudit(this.history, (name) => this.#registry.has(name), clock);
    this.observer = options.observer ?? noopObserver;
    this.limits = options.config.limits;
    const { shardDistribution: sd } = options.config;
    const { process } = sd;
    const evidence = this.#evidence = new StoreEvidence({ silenceMs: STORE_SILENCE_MS, clock });
    this.health = new HealthMonitor(
      options.store,
      () => this.#registry.all().every((ns) => ns.synced),
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
      ...(options.storeFormat === undefined ? {} : { storeFormat: options.storeFormat }),
    });
    this.#catalog = new NamespaceCatalog({
      definitions: options.store.definitions,
      registry: this.#registry,
      build,
      logger: options.logger,
      clock,
    });
    this.routing = new RoutingReads({
      instanceId: this.instanceId,
      registry: this.#registry,
      catalog: this.#catalog,
      fileOrder: sd.namespaces.map((n) => n.name),
      leaderStore: options.leaderStore,
      advertisement: this.#advertisement,
      health: this.health,
      evidence,
      pulsing: () => this.#pulse !== undefined,
      running: this.#running,
      stop: this.#stop.signal,
      clock,
    });
    this.namespaces = this.routing;
    this.admin = new NamespaceAdmin({
      store: options.store,
      catalog: this.#catalog,
      registry: this.#registry,
      heartbeatTtlMs: process.heartbeatTtlMs,
      logger: options.logger,
      clock,
      history: this.history,
      ...(options.storeFormat === undefined ? {} : { storeFormat: options.storeFormat }),
    });
    this.heartbeats = this.#heartbeats = new HeartbeatResponder(options.store, {
      namespaces: heartbeatNamespaces(this.#registry, this.#running.hear),
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
    const lookup = (name: string) => this.#registry.get(name);
    this.operations = new NamespaceOperations(options.store, lookup, clock, this.history);
    this.executorDrains = new ExecutorDrains(options.store, lookup, clock, this.history);
    this.stopChecks = new StopChecks(() => this.#registry.all(), lookup, clock);
    this.cells = new CellOperations({ lookup, clock, store: options.store });
    this.brakes = new BrakeOperations(lookup, options.store);
    this.slices = new SliceOperations(lookup, clock);
    recordStoreOutages(evidence, {
      history: this.history,
      clock,
      instance: () => this.#advertisement.get()?.instanceName ?? this.instanceId,
      namespaces: () =>
        this.#registry.all().filter((n) => n.view.leader?.claim.instanceId === this.instanceId)
          .map((n) => n.name),
    });
    graceAfterOutages(this.health, () => this.#registry.all(), {
      clock,
      logger: options.logger,
      detectionMs: this.health.detectionMs,
      evidence,
    });
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
    const { namespaces, namespaceSpecs } = this.#options.config.shardDistribution;
    await seedFileNamespaces(namespaces, {
      specs: namespaceSpecs,
      admin: this.admin,
      definitions: this.#options.store.definitions,
      logger: this.#options.logger,
      history: this.history,
    });
    await this.#catalog.start(signal);
    this.#evidence.heard(); // every namespace was just loaded from the store
    this.#pulse = runStorePulse(this.#options.store, this.#evidence, signal, {
      clock: this.#clock,
    });
    this.#health = this.health.run(signal);
    this.#notes = this.#running.run(signal, {
      namespaces: () => this.#registry.all(),
      time: () => this.routing.time(),
      record: (namespace, note) => void this.history.record(namespace, note),
    });
    this.#sweep = runHistorySweep(this.history, signal, {
      clock: this.#clock,
      logger: this.#options.logger,
    });
    // "shard manager started" is logged by app.ts once both listeners are bound.
  }

  /**
   * Applies the configuration file's namespaces again (on `SIGHUP`): new ones
   * are created, changed ones updated with the API's checks, removed ones
   * deleted after a drain; each outcome is logged and returned. A change that
   * cannot be applied is refused and leaves its namespace running as it was.
   */
  reloadFileNamespaces(
    namespaces: readonly NamespaceConfig[],
    specs?: readonly NamespaceSpec[],
  ): Promise<FileNamespaceOutcome[]> {
    return seedFileNamespaces(namespaces, {
      specs,
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
        this.#registry.all().map((ns) => [`namespace ${ns.name}`, ns.stopped()]),
      ),
      "health monitor": this.#health,
      "store pulse": this.#pulse,
      "running-shard notes": this.#notes,
      "history sweep": this.#sweep,
    });
    await stopWithin("the heartbeat pipeline", this.#options.logger, this.#clock, {
      "heartbeat writes": this.#heartbeats.close(),
    });
  }
}
