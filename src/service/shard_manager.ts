/**
 * One Shard Manager instance: a registry of namespace runtimes, the heartbeat
 * pipeline and the health monitor they share, and the API the transport
 * calls. Any instance answers any call; only the leader of a namespace
 * rebalances it. Everything about one namespace lives in its
 * {@linkcode NamespaceRuntime}, built once from its policy.
 *
 * @module
 */
import type { Config } from "../config/mod.ts";
import { type Clock, systemClock } from "../core/clock.ts";
import { ShuttingDownError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import { noopObserver, type ServiceObserver } from "../core/observer.ts";
import { HeartbeatIngest } from "../heartbeat/heartbeat_ingest.ts";
import type { RawHeartbeat } from "../heartbeat/validate_heartbeat.ts";
import type { RequestLimits } from "../limits/request_limits.ts";
import { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import { namespacePolicy } from "../policy/namespace_policy.ts";
import * as routing from "../routing/mod.ts";
import type { LeaderStore, Store } from "../store/mod.ts";
import { CellOperations } from "./cell_operations.ts";
import { ExecutorDrains } from "./executor_drains.ts";
import { type HeartbeatAnswer, heartbeatAnswer } from "./heartbeat_answers.ts";
import { HealthMonitor } from "./health_monitor.ts";
import { NamespaceRegistry } from "./namespace_registry.ts";
import { graceAfterOutages } from "./outage_grace.ts";
import { NamespaceOperations } from "./namespace_operations.ts";

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
  /** Where observations for metrics go. */
  readonly observer: ServiceObserver;
  /** Limits on requests, from the `limits` section of the configuration. */
  readonly limits: RequestLimits;
  #options: ShardManagerOptions;
  #clock: Clock;
  #ingest: HeartbeatIngest;
  #stop = new AbortController();
  #health: Promise<void> | undefined;

  /** Builds the instance; `start()` brings it up. */
  constructor(options: ShardManagerOptions) {
    this.#options = options;
    const clock = this.#clock = options.clock ?? systemClock;
    this.instanceId = options.instanceId ?? crypto.randomUUID();
    this.observer = options.observer ?? noopObserver;
    this.limits = options.config.limits;
    const { shardDistribution: sd } = options.config;
    const { process } = sd;
    this.health = new HealthMonitor(
      options.store,
      () => this.namespaces.all().every((ns) => ns.cache.synced),
      { clock },
    );
    for (const config of sd.namespaces) {
      const policy = namespacePolicy(config, {
        process,
        limits: this.limits,
        maxReliedOn: options.store.limits.maxUnchangedExecutors,
      });
      this.namespaces.add(
        new NamespaceRuntime(policy, {
          store: options.store,
          leaderStore: options.leaderStore,
          instanceId: this.instanceId,
          election: {
            // The embedded leader store has no leases; the value is then unused.
            electionTtlMs: sd.leaderStore?.storageParams.electionTtlMs ?? 5_000,
            leaderPeriodMs: sd.election.leaderPeriodMs,
            maxRandomDelayMs: sd.election.maxRandomDelayMs,
            failedElectionCooldownMs: sd.election.failedElectionCooldownMs,
          },
          clock,
          logger: options.logger,
          observer: this.observer,
          beforeTerm: async () => void await this.health.probe(),
        }),
      );
    }
    this.#ingest = new HeartbeatIngest(options.store, {
      namespaces: (name) => {
        if (!this.namespaces.has(name)) return undefined;
        const ns = this.namespaces.get(name);
        return {
          executor: (id) => ns.view.executor(id),
          recordEvery: ns.policy.ownershipLeaseMs !== undefined,
        };
      },
      limits: this.limits,
      // Every answered heartbeat is recorded within one flush (coalesced per executor), so an
      // executor's shards move at most TTL + TTL/8 (or TTL + 1 s) + a period after its last one,
      // and never before the TTL (see heartbeat_ingest.ts).
      flushMs: Math.min(process.heartbeatTtlMs / 8, 1_000),
      storeReachable: () => {
        const { checkedAtMs, storeReachable } = this.health.status;
        return checkedAtMs === 0 || storeReachable;
      },
      clock,
      logger: options.logger,
    });
    const lookup = (name: string) => this.namespaces.get(name);
    this.operations = new NamespaceOperations(options.store, lookup);
    this.executorDrains = new ExecutorDrains(options.store, lookup, clock);
    this.cells = new CellOperations({ lookup, clock });
    graceAfterOutages(this.health, () => this.namespaces.all().map((n) => n.cache.state), {
      clock,
      logger: options.logger,
      detectionMs: this.health.detectionMs,
    });
  }

  /** Loads every namespace, then starts the election loops. */
  async start(): Promise<void> {
    const signal = this.#stop.signal;
    const runtimes = this.namespaces.all();
    await Promise.all(runtimes.map((ns) => ns.load(signal)));
    for (const ns of runtimes) ns.campaign(signal);
    this.#health = this.health.run(signal);
    this.#options.logger.info("shard manager started", {
      instanceId: this.instanceId,
      namespaces: runtimes.map((ns) => ns.name),
    });
  }

  /** Resigns every leadership, drains the heartbeat pipeline and stops following the store. */
  async stop(): Promise<void> {
    if (this.#stop.signal.aborted) return;
    this.#stop.abort(new ShuttingDownError());
    await Promise.all([...this.namespaces.all().map((ns) => ns.stopped()), this.#health]);
    await this.#ingest.close();
  }

  /** Configured namespaces. */
  listNamespaces(): routing.NamespaceInfo[] {
    return this.namespaces.all().map(({ policy }) => ({
      name: policy.name,
      type: policy.type,
      shardNum: policy.shardNum,
      mode: "onboarded",
    }));
  }

  /** Records a heartbeat and answers with the executor's shards. */
  async heartbeat(raw: RawHeartbeat): Promise<HeartbeatAnswer> {
    const revision = await this.#ingest.submit(raw); // validates it, namespace included
    const ns = this.namespaces.get(raw.namespace);
    const leaseMs = ns.policy.ownershipLeaseMs;
    const exclusive = leaseMs !== undefined;
    // Exclusive: answer from a picture at least as new as this heartbeat's own record, so
    // that a shard moved away before it was written is never handed back (docs/ownership.md).
    if (exclusive && revision !== undefined) {
      await ns.cache.waitForRevision(revision, this.#stop.signal);
    }
    return heartbeatAnswer(ns.view, raw.executorId, leaseMs);
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
    );
  }

  /** Who owns a shard, with its load and history; never creates it. */
  inspectShard(namespace: string, key: string): routing.ShardInspection {
    return routing.inspectShard(this.namespaces.get(namespace), key);
  }

  /** Every executor of a namespace. */
  getNamespaceState(namespace: string): routing.ExecutorStateView[] {
    return routing.namespaceState(this.namespaces.get(namespace).view, this.#time());
  }

  /** A namespace's owner changes by reason, as this instance applied them since it started. */
  getShardMoves(
    namespace: string,
  ): Readonly<Record<"placement" | "balance" | "drain" | "loss", number>> {
    return { ...this.namespaces.get(namespace).view.moveCounts };
  }

  /** One executor. */
  getExecutorState(namespace: string, executorId: string): routing.ExecutorStateView {
    return routing.executorState(this.namespaces.get(namespace).view, executorId, this.#time());
  }

  /**
   * Who leads each namespace now, sorted by namespace: the election's winner
   * (from the leader store), with the start of its term from its claim.
   */
  async listLeaders(): Promise<routing.LeaderView[]> {
    const runtimes = this.namespaces.names().map((name) => this.namespaces.get(name));
    return await Promise.all(runtimes.map(async ({ name, view }) => {
      const elected = await this.#options.leaderStore.leader(name);
      if (!elected) return { namespace: name };
      const claim = view.leader?.claim;
      const sinceMs = claim?.term === elected.term && claim.instanceId === elected.instanceId
        ? claim.sinceMs
        : undefined;
      return {
        namespace: name,
        instanceId: elected.instanceId,
        term: elected.term,
        ...(sinceMs === undefined ? {} : { sinceMs }),
      };
    }));
  }

  /** Aggregates of a namespace, for metrics. */
  namespaceStats(namespace: string): routing.NamespaceStats {
    return routing.namespaceStats(this.namespaces.get(namespace).view, this.#time());
  }

  /** Whether this instance leads `namespace` now. */
  isLeading(namespace: string): boolean {
    return this.namespaces.has(namespace) && this.namespaces.get(namespace).leading;
  }

  #time(): routing.InspectionTime {
    return { now: this.#clock.monotonic(), wallNow: this.#clock.now() };
  }

  /** A stream of the namespace picture: the current one, then every change. */
  watchNamespace(namespace: string, signal: AbortSignal): ReadableStream<routing.NamespacePicture> {
    return this.namespaces.get(namespace).fanout.subscribe(
      AbortSignal.any([signal, this.#stop.signal]),
    );
  }

  /** Like `watchNamespace`, but after the first picture only what changed. */
  watchNamespaceDeltas(
    namespace: string,
    signal: AbortSignal,
  ): ReadableStream<routing.NamespacePicture | routing.NamespaceDelta> {
    return this.namespaces.get(namespace).fanout.subscribeDeltas(
      AbortSignal.any([signal, this.#stop.signal]),
    );
  }
}
