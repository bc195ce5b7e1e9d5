/**
 * One Shard Manager instance: a cache and an election loop per namespace, the
 * heartbeat pipeline, and the API the transport calls. Any instance answers
 * any call; only the leader of a namespace rebalances it.
 *
 * @module
 */
import type { Config, NamespaceConfig } from "../config/mod.ts";
import { type Clock, systemClock } from "../core/clock.ts";
import { NamespaceNotFoundError, ShuttingDownError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import { noopObserver, type ServiceObserver } from "../core/observer.ts";
import { HeartbeatIngest } from "../heartbeat/heartbeat_ingest.ts";
import type { RawHeartbeat } from "../heartbeat/validate_heartbeat.ts";
import { runElectionLoop } from "../leader/election_loop.ts";
import { runLeaderTerm } from "../leader/leader_term.ts";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import type { RequestLimits } from "../limits/request_limits.ts";
import * as routing from "../routing/mod.ts";
import { NamespaceCache } from "../state/namespace_cache.ts";
import type { LeaderStore, Store } from "../store/mod.ts";
import { PendingCellMoves } from "../leader/cells_moves.ts";
import { replicationSeed } from "../leader/replicas_pass.ts";
import { CellOperations } from "./cell_operations.ts";
import { ExecutorDrains } from "./executor_drains.ts";
import { type HeartbeatAnswer, heartbeatAnswer } from "./heartbeat_answers.ts";
import { HealthMonitor } from "./health_monitor.ts";
import { graceAfterOutages } from "./outage_grace.ts";
import { NamespaceOperations } from "./namespace_operations.ts";

/** The ownership lease of an exclusive namespace, or undefined for an available one. */
export function ownershipLeaseOf(
  config: NamespaceConfig,
  heartbeatTtlMs: number,
): number | undefined {
  return config.ownership === "exclusive" ? config.ownershipLeaseMs ?? heartbeatTtlMs : undefined;
}

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

/** A namespace inside this instance, with its fan-out. */
interface Namespace extends routing.NamespaceRuntime {
  readonly fanout: routing.WatchFanout;
  readonly moves: PendingCellMoves;
}

/** One Shard Manager instance. */
export class ShardManager {
  /** This instance's id (recorded in leader claims). */
  readonly instanceId: string;
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
  #namespaces = new Map<string, Namespace>();
  #ingest: HeartbeatIngest;
  #stop = new AbortController();
  #loops: Promise<void>[] = [];
  #leading = new Set<string>();

  /** Builds the instance; `start()` brings it up. */
  constructor(options: ShardManagerOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.instanceId = options.instanceId ?? crypto.randomUUID();
    this.observer = options.observer ?? noopObserver;
    this.limits = options.config.limits;
    const { process } = options.config.shardDistribution;
    for (const config of options.config.shardDistribution.namespaces) {
      const leaseMs = ownershipLeaseOf(config, process.heartbeatTtlMs);
      const cache = new NamespaceCache(options.store, config.name, {
        heartbeatTtlMs: process.heartbeatTtlMs,
        ...(leaseMs === undefined ? {} : { ownershipLeaseMs: leaseMs }),
        clock: this.#clock,
        logger: options.logger,
        observer: this.observer,
      });
      this.#namespaces.set(config.name, {
        config,
        cache,
        requester: new routing.ShardRequester(options.store, config.name, {
          now: () => this.#clock.monotonic(),
        }),
        ...(config.type === "ephemeral"
          ? { maxShards: config.maxShards ?? this.limits.maxEphemeralShards }
          : {}),
        fanout: new routing.WatchFanout(cache),
        moves: new PendingCellMoves(),
      });
    }
    this.#ingest = new HeartbeatIngest(options.store, {
      namespaces: (name) => {
        const ns = this.#namespaces.get(name);
        return ns && {
          executor: (id) => ns.cache.state.executors.get(id),
          recordEvery: ownershipLeaseOf(ns.config, process.heartbeatTtlMs) !== undefined,
        };
      },
      limits: this.limits,
      refreshMs: process.heartbeatTtlMs / 4,
      // A renewal is written at most TTL/4 + one heartbeat interval + TTL/8
      // after the last one: well inside the TTL for executors that beat a few
      // times per TTL.
      flushMs: Math.min(process.heartbeatTtlMs / 8, 1_000),
      storeReachable: () => {
        const { checkedAtMs, storeReachable } = this.health.status;
        return checkedAtMs === 0 || storeReachable;
      },
      clock: this.#clock,
      logger: options.logger,
    });
    const lookup = (name: string) => this.#namespace(name);
    this.operations = new NamespaceOperations(options.store, lookup);
    this.executorDrains = new ExecutorDrains(options.store, lookup, this.#clock);
    this.cells = new CellOperations({
      lookup,
      isLeading: (name) => this.isLeading(name),
      moves: (name) => this.#namespace(name).moves,
      clock: this.#clock,
    });
    this.health = new HealthMonitor(
      options.store,
      () => [...this.#namespaces.values()].every((ns) => ns.cache.synced),
      { clock: this.#clock },
    );
    graceAfterOutages(this.health, () => [...this.#namespaces.values()].map((n) => n.cache.state), {
      clock: this.#clock,
      logger: options.logger,
      detectionMs: this.health.detectionMs,
    });
  }

  /** Loads every namespace, then starts the election loops. */
  async start(): Promise<void> {
    const signal = this.#stop.signal;
    await Promise.all([...this.#namespaces.values()].map((ns) => ns.cache.start(signal)));
    for (const ns of this.#namespaces.values()) this.#loops.push(this.#elect(ns, signal));
    this.#loops.push(this.health.run(signal));
    this.#options.logger.info("shard manager started", {
      instanceId: this.instanceId,
      namespaces: [...this.#namespaces.keys()],
    });
  }

  /** Resigns every leadership, drains the heartbeat pipeline and stops following the store. */
  async stop(): Promise<void> {
    if (this.#stop.signal.aborted) return;
    this.#stop.abort(new ShuttingDownError());
    await Promise.all(this.#loops);
    await this.#ingest.close();
  }

  /** Configured namespaces. */
  listNamespaces(): routing.NamespaceInfo[] {
    return [...this.#namespaces.values()].map(({ config }) => ({
      name: config.name,
      type: config.type,
      shardNum: config.shardNum ?? 0,
      mode: "onboarded",
    }));
  }

  /** Records a heartbeat and answers with the executor's shards. */
  async heartbeat(raw: RawHeartbeat): Promise<HeartbeatAnswer> {
    const revision = await this.#ingest.submit(raw); // validates it, namespace included
    const ns = this.#namespace(raw.namespace);
    const leaseMs = ownershipLeaseOf(
      ns.config,
      this.#options.config.shardDistribution.process.heartbeatTtlMs,
    );
    const exclusive = leaseMs !== undefined;
    // Exclusive: answer from a picture at least as new as this heartbeat's own record, so
    // that a shard moved away before it was written is never handed back (docs/ownership.md).
    if (exclusive && revision !== undefined) {
      await ns.cache.waitForRevision(revision, this.#stop.signal);
    }
    return heartbeatAnswer(ns.cache.state, raw.executorId, leaseMs);
  }

  /** Who owns a shard (creating an ephemeral one on first ask). */
  getShardOwner(
    namespace: string,
    key: string,
    signal?: AbortSignal,
  ): Promise<routing.ShardOwnerView> {
    return routing.getShardOwner(this.#namespace(namespace), key, this.#clock.monotonic(), signal);
  }

  /** Who owns a shard, with its load and history; never creates it. */
  inspectShard(namespace: string, key: string): routing.ShardInspection {
    return routing.inspectShard(this.#namespace(namespace), key);
  }

  /** Every executor of a namespace. */
  getNamespaceState(namespace: string): routing.ExecutorStateView[] {
    return routing.namespaceState(this.#namespace(namespace).cache.state, this.#time());
  }

  /** One executor. */
  getExecutorState(namespace: string, executorId: string): routing.ExecutorStateView {
    return routing.executorState(
      this.#namespace(namespace).cache.state,
      executorId,
      this.#time(),
    );
  }

  /**
   * Who leads each namespace now, sorted by namespace: the election's winner
   * (from the leader store), with the start of its term from its claim.
   */
  async listLeaders(): Promise<routing.LeaderView[]> {
    const namespaces = [...this.#namespaces.values()].sort((a, b) =>
      a.config.name < b.config.name ? -1 : a.config.name > b.config.name ? 1 : 0
    );
    return await Promise.all(namespaces.map(async ({ config, cache }) => {
      const elected = await this.#options.leaderStore.leader(config.name);
      if (!elected) return { namespace: config.name };
      const claim = cache.state.leader?.claim;
      const sinceMs = claim?.term === elected.term && claim.instanceId === elected.instanceId
        ? claim.sinceMs
        : undefined;
      return {
        namespace: config.name,
        instanceId: elected.instanceId,
        term: elected.term,
        ...(sinceMs === undefined ? {} : { sinceMs }),
      };
    }));
  }

  /** Aggregates of a namespace, for metrics. */
  namespaceStats(namespace: string): routing.NamespaceStats {
    return routing.namespaceStats(this.#namespace(namespace).cache.state, this.#time());
  }

  /** Whether this instance leads `namespace` now. */
  isLeading(namespace: string): boolean {
    return this.#leading.has(namespace);
  }

  #time(): routing.InspectionTime {
    return { now: this.#clock.monotonic(), wallNow: this.#clock.now() };
  }

  /** A stream of the namespace picture: the current one, then every change. */
  watchNamespace(namespace: string, signal: AbortSignal): ReadableStream<routing.NamespaceView> {
    return this.#namespace(namespace).fanout.subscribe(
      AbortSignal.any([signal, this.#stop.signal]),
    );
  }

  /** Like `watchNamespace`, but after the first picture only what changed. */
  watchNamespaceDeltas(
    namespace: string,
    signal: AbortSignal,
  ): ReadableStream<routing.NamespaceView | routing.NamespaceDelta> {
    return this.#namespace(namespace).fanout.subscribeDeltas(
      AbortSignal.any([signal, this.#stop.signal]),
    );
  }

  #namespace(name: string): Namespace {
    const ns = this.#namespaces.get(name);
    if (!ns) throw new NamespaceNotFoundError(name);
    return ns;
  }

  #elect(ns: Namespace, signal: AbortSignal): Promise<void> {
    const { config: root, logger, leaderStore, store } = this.#options;
    const sd = root.shardDistribution;
    const ttl = sd.process.heartbeatTtlMs;
    return runElectionLoop({
      namespace: ns.config.name,
      instanceId: this.instanceId,
      leaderStore,
      // The embedded leader store has no leases; the value is then unused.
      electionTtlMs: sd.leaderStore?.storageParams.electionTtlMs ?? 5_000,
      leaderPeriodMs: sd.election.leaderPeriodMs,
      maxRandomDelayMs: sd.election.maxRandomDelayMs,
      failedElectionCooldownMs: sd.election.failedElectionCooldownMs,
      logger,
      lead: async (leadership, termSignal) => {
        this.#leading.add(ns.config.name);
        // A term often starts right after a store outage: let the health monitor see the
        // store back (and forgive the outage, see outage_grace.ts) before the first pass.
        try {
          await this.health.probe();
          if (termSignal.aborted) return;
          await runLeaderTerm(leadership, termSignal, {
            instanceId: this.instanceId,
            cache: ns.cache,
            store,
            shape: shapeOf(ns.config),
            pass: {
              balancer: loadBalancerFor(ns.config.loadBalancer),
              maxMoves: ns.config.maxMovesPerPass ?? sd.process.maxMovesPerPass,
              executorRetentionMs: Math.max(10 * ttl, 60_000),
              ...exclusiveOf(ns.config, ttl),
              ...(ns.config.mode === "cells"
                ? {
                  cells: {
                    pins: new Map(Object.entries(ns.config.pins ?? {})),
                    moves: ns.moves.pending,
                  },
                }
                : {}),
              ...replicationOf(ns.config),
            },
            periodMs: sd.process.periodMs,
            cooldownMs: sd.process.rebalanceCooldownMs,
            logger,
            clock: this.#clock,
            onPass: (pass) => this.observer.pass?.(ns.config.name, pass),
          });
        } finally {
          this.#leading.delete(ns.config.name);
        }
      },
    }, signal);
  }
}

function exclusiveOf(config: NamespaceConfig, ttl: number) {
  const leaseMs = ownershipLeaseOf(config, ttl);
  return leaseMs === undefined ? {} : { exclusive: { leaseMs } };
}

function replicationOf(config: NamespaceConfig) {
  if ((config.replicas ?? 1) <= 1) return {};
  return {
    replication: {
      replicas: config.replicas ?? 1,
      placement: config.placement === "shuffle" ? "shuffle" as const : "balanced" as const,
      ...(config.maxOverlap === undefined ? {} : { maxOverlap: config.maxOverlap }),
      zoneKey: config.zoneKey ?? "zone",
      seed: replicationSeed(config.name),
    },
  };
}

function shapeOf(config: NamespaceConfig) {
  return config.shardNum === undefined
    ? { type: config.type }
    : { type: config.type, shardNum: config.shardNum };
}
