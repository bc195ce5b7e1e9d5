/**
 * The typed, validated configuration. Durations are milliseconds in properties
 * ending in `Ms`; every default has been applied.
 *
 * @module
 */

/** `shardDistribution.election`: how instances campaign for a namespace's leadership. */
export interface ElectionConfig {
  /** How long a leader keeps leadership before it resigns (`leaderPeriod`, default 60s). */
  leaderPeriodMs: number;
  /** Upper bound of the random delay before campaigning (`maxRandomDelay`, default 1s). */
  maxRandomDelayMs: number;
  /** Wait after a failed election attempt (`failedElectionCooldown`, default 1s). */
  failedElectionCooldownMs: number;
}

/** Kind of namespace: a static set of shards, or shards created on first lookup. */
export type NamespaceType = "fixed" | "ephemeral";

/** Load balancer that plans a namespace's moves. */
export type LoadBalancerName = "naive" | "greedy";

/** One entry of `shardDistribution.namespaces`. */
export interface NamespaceConfig {
  /** Unique namespace name, matching `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`. */
  name: string;
  /** `fixed` or `ephemeral`. */
  type: NamespaceType;
  /** Number of shards; present exactly when `type` is `fixed`. */
  shardNum?: number;
  /** Load balancer (`loadBalancer`, default `greedy`). */
  loadBalancer: LoadBalancerName;
  /**
   * Balancing moves per pass for this namespace (`maxMovesPerPass`), overriding
   * `process.maxMovesPerPass`; 0 keeps shards where they are placed (sticky).
   */
  maxMovesPerPass?: number;
  /**
   * `cells`: the shard key is a tenant (partition key) and the executors are
   * cells; a tenant is placed once on the least-loaded cell and never moved by
   * balancing (`mode`; absent for ordinary namespaces). Requires `ephemeral`.
   */
  mode?: "cells";
  /**
   * Tenant → cell pins of a cells namespace (`pins`): a pinned tenant goes to
   * its cell, and a cell that is the target of a pin takes no other new tenant.
   */
  pins?: Record<string, string>;
}

/** `storageParams` of an etcd-backed store. */
export interface StorageParams {
  /** etcd endpoints, each `host:port` or `http(s)://host:port`, as written. */
  endpoints: string[];
  /** Timeout on connecting (`dialTimeout`, default 1s). */
  dialTimeoutMs: number;
  /** Key prefix without leading or trailing slashes (`prefix`). */
  prefix: string;
  /** Lease of an elected leader (`electionTTL`); only the leader store has it. */
  electionTtlMs?: number;
}

/** `storageParams` of the leader store, which always has an election lease. */
export interface LeaderStorageParams extends StorageParams {
  /** Lease of an elected leader, whole seconds and at least 2s (`electionTTL`, default 5s). */
  electionTtlMs: number;
}

/** `shardDistribution.leaderStore`: where elections happen. */
export interface LeaderStoreConfig {
  /** Connection and key layout; `prefix` defaults to `leader`. */
  storageParams: LeaderStorageParams;
}

/** `shardDistribution.store`: where namespace state lives. */
export interface StoreConfig {
  /** Connection and key layout; `prefix` defaults to `store`. */
  storageParams: StorageParams;
}

/** `shardDistribution.embedded`: the single-node store that needs no etcd. */
export interface EmbeddedConfig {
  /** Directory of its files (`dataDir`, default `.data/embedded`), created when missing. */
  dataDir: string;
}

/** `shardDistribution.process`: the leader's rebalancing loop. */
export interface ProcessConfig {
  /** Longest time between two passes; a state change triggers one sooner (`period`, default 1s). */
  periodMs: number;
  /** Age after which an executor's heartbeat is stale (`heartbeatTTL`, default 2s). */
  heartbeatTtlMs: number;
  /** Least time between two passes (`rebalanceCooldown`, default 100ms). */
  rebalanceCooldownMs: number;
  /** Balancing moves per pass; assigning unowned shards is not limited (`maxMovesPerPass`, default 1000). */
  maxMovesPerPass: number;
}

/** `shardDistribution`: everything about assigning shards. */
export interface ShardDistributionConfig {
  /** Leader election timings. */
  election: ElectionConfig;
  /** The namespaces served; at least one, names unique. */
  namespaces: NamespaceConfig[];
  /** The etcd used for elections; absent exactly when `embedded` is set. */
  leaderStore?: LeaderStoreConfig;
  /** The etcd used for namespace state; absent exactly when `embedded` is set. */
  store?: StoreConfig;
  /** A single-node embedded store instead of etcd; absent when etcd is configured. */
  embedded?: EmbeddedConfig;
  /** The rebalancing loop. */
  process: ProcessConfig;
}

/** `server`: the gRPC listener. */
export interface ServerConfig {
  /** `host:port` to listen on (`grpcAddress`, default `127.0.0.1:7943`). */
  grpcAddress: string;
  /** `host:port` of the HTTP listener: metrics, health, dashboard (`httpAddress`, default `127.0.0.1:7944`). */
  httpAddress: string;
  /** Let the dashboard drain and undrain executors and shards (`dashboardActions`, default false). */
  dashboardActions: boolean;
}

/** Log levels, least severe first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** `log`: logging. */
export interface LogConfig {
  /** Least severe level written (`level`, default `info`). */
  level: LogLevel;
}

/** The whole service configuration. */
export interface Config {
  /** Shard assignment: elections, namespaces, stores, rebalancing. */
  shardDistribution: ShardDistributionConfig;
  /** The gRPC listener. */
  server: ServerConfig;
  /** Logging. */
  log: LogConfig;
}
