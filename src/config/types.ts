/**
 * The typed, validated configuration. Durations are milliseconds in properties
 * ending in `Ms`; every default has been applied.
 *
 * @module
 */
import type { NamespaceConfig, NamespaceSpec } from "./namespace_types.ts";

export type * from "./namespace_types.ts";

/** `shardDistribution.election`: how instances campaign for a namespace's leadership. */
export interface ElectionConfig {
  /** How long a leader keeps leadership before it resigns (`leaderPeriod`, default 60s). */
  leaderPeriodMs: number;
  /** Upper bound of the random delay before campaigning (`maxRandomDelay`, default 1s). */
  maxRandomDelayMs: number;
  /** Wait after a failed election attempt (`failedElectionCooldown`, default 1s). */
  failedElectionCooldownMs: number;
}

/** How strictly a namespace keeps one owner per shard (`ownership` in YAML). */
export type OwnershipMode = "available" | "exclusive";

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
  /** TLS to etcd; absent: plaintext. */
  tls?: EtcdTlsConfig;
  /** Username and password; absent: no etcd authentication. */
  auth?: EtcdAuthConfig;
}

/** `storageParams` of the leader store, which always has an election lease. */
export interface LeaderStorageParams extends StorageParams {
  /** Lease of an elected leader, whole seconds and at least 2s (`electionTTL`, default 5s). */
  electionTtlMs: number;
}

/** `storageParams.tls`: TLS to etcd (the endpoints then use `https://`). */
export interface EtcdTlsConfig {
  /** PEM file of the CA that signed etcd's certificate (`caFile`). */
  caFile: string;
  /** PEM file of this client's certificate, for etcd's `--client-cert-auth` (`certFile`). */
  certFile?: string;
  /** PEM file of this client's private key; given exactly with `certFile` (`keyFile`). */
  keyFile?: string;
  /** Name to verify in etcd's certificate instead of the endpoint's host (`serverName`). */
  serverName?: string;
}

/** `storageParams.auth`: etcd username and password; the password from exactly one source. */
export interface EtcdAuthConfig {
  /** The etcd user (`username`). */
  username: string;
  /** The password, inline (`password`). */
  password?: string;
  /** Name of an environment variable holding the password (`passwordEnv`). */
  passwordEnv?: string;
  /** A file holding the password; surrounding whitespace is dropped (`passwordFile`). */
  passwordFile?: string;
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
  /**
   * Each of `namespaces` as it was written in the file, in the same order:
   * what is stored and printed back. Absent for a configuration built in
   * code, whose definitions are written out from their fields.
   */
  namespaceSpecs?: NamespaceSpec[];
  /** The etcd used for elections; absent exactly when `embedded` is set. */
  leaderStore?: LeaderStoreConfig;
  /** The etcd used for namespace state; absent exactly when `embedded` is set. */
  store?: StoreConfig;
  /** A single-node embedded store instead of etcd; absent when etcd is configured. */
  embedded?: EmbeddedConfig;
  /** The rebalancing loop. */
  process: ProcessConfig;
  /**
   * Retention of each namespace's history (`history.maxAge`, default 24h;
   * `history.maxEvents`, default 2000); absent means the defaults.
   */
  history?: { maxAgeMs: number; maxEvents: number } | undefined;
}

/** `server`: the gRPC listener. */
export interface ServerConfig {
  /** `host:port` to listen on (`grpcAddress`, default `127.0.0.1:7943`). */
  grpcAddress: string;
  /** `host:port` of the HTTP listener: metrics, health, dashboard (`httpAddress`, default `127.0.0.1:7944`). */
  httpAddress: string;
  /** Let the dashboard drain and undrain executors and shards (`dashboardActions`, default false). */
  dashboardActions: boolean;
  /**
   * Stable name of this instance shown by ListLeaders and the dashboard
   * (`instanceName`, default the host name and the gRPC port, `host:7943`).
   */
  instanceName?: string | undefined;
}

/** Log levels, least severe first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** `log`: logging. */
export interface LogConfig {
  /** Least severe level written (`level`, default `info`). */
  level: LogLevel;
}

/** A role an identity can hold (see `src/security/roles.ts`). */
export type SecurityRole = "spectator" | "executor" | "operator";

/** `security.tls`: TLS on the gRPC server. */
export interface ServerTlsConfig {
  /** PEM file of the server's certificate chain (`certFile`). */
  certFile: string;
  /** PEM file of the server's private key (`keyFile`). */
  keyFile: string;
  /** PEM file of the CA that signs client certificates; set: mutual TLS, a client certificate is required (`clientCaFile`). */
  clientCaFile?: string;
}

/** One entry of `security.auth.tokens`: a bearer token and what it may do. */
export interface TokenRule {
  /** Who holds the token; logged with every denial (`name`). */
  name: string;
  /** Roles granted (`roles`). */
  roles: SecurityRole[];
  /** Hex SHA-256 of the token (`sha256`); exactly one of `sha256`, `env`, `file`. */
  sha256?: string;
  /** Environment variable holding the token (`env`). */
  env?: string;
  /** File holding the token; surrounding whitespace is dropped (`file`). */
  file?: string;
  /** The only executor id this token may heartbeat as (`executorId`); absent: any. */
  executorId?: string;
  /** Namespaces (names or globs with `*` and `?`) every granted role is limited to (`namespaces`); absent: all. */
  namespaces?: string[];
}

/** One entry of `security.auth.certificates`: client certificates and what they may do. */
export interface CertificateRule {
  /** The certificate's subject CN or one of its SANs (`DNS:x`, `URI:y` or the bare value); `*`: any certificate the client CA signed. */
  subject: string;
  /** Roles granted (`roles`). */
  roles: SecurityRole[];
  /** The only executor id it may heartbeat as (`executorId`); absent: its CN or one of its SAN values. */
  executorId?: string;
  /** Namespaces (names or globs with `*` and `?`) every granted role is limited to (`namespaces`); absent: all. */
  namespaces?: string[];
}

/** `security.auth`: who may call what. Absent: every call is allowed. */
export interface AuthConfig {
  /** Bearer tokens (`tokens`, default none). */
  tokens: TokenRule[];
  /** Client certificates (`certificates`, default none); needs `security.tls.clientCaFile`. */
  certificates: CertificateRule[];
  /** Roles of a call with neither token nor certificate (`anonymousRoles`, default none). */
  anonymousRoles: SecurityRole[];
}

/** `security`: transport security and authorization of the gRPC API. */
export interface SecurityConfig {
  /** TLS on the gRPC server; absent: plaintext. */
  tls?: ServerTlsConfig;
  /** Roles; absent: everything is allowed. */
  auth?: AuthConfig;
}

/** `limits`: request limits an operator may change (see `docs/limits.md`). */
export interface LimitsConfig {
  /** Longest shard key, in bytes (UTF-8) (`maxShardKeyLength`, default 1024). */
  maxShardKeyLength: number;
  /** Most shard keys per DrainShards/UndrainShards call (`maxShardKeysPerRequest`, default 10000). */
  maxShardKeysPerRequest: number;
  /** Most shard reports per heartbeat (`maxShardReportsPerHeartbeat`, default 10000). */
  maxShardReportsPerHeartbeat: number;
  /** Largest executor metadata as stored, JSON in bytes (`maxMetadataBytes`, default 614400). */
  maxMetadataBytes: number;
  /** Largest request the gRPC server accepts, in bytes (`maxReceiveMessageBytes`, default 4194304). */
  maxReceiveMessageBytes: number;
  /** Default cap on each ephemeral namespace's shards (`maxEphemeralShards`, default 100000). */
  maxEphemeralShards: number;
}

/** The whole service configuration. */
export interface Config {
  /** Shard assignment: elections, namespaces, stores, rebalancing. */
  shardDistribution: ShardDistributionConfig;
  /** The gRPC listener. */
  server: ServerConfig;
  /** Logging. */
  log: LogConfig;
  /** TLS and roles of the gRPC API; absent: plaintext, everything allowed. */
  security?: SecurityConfig;
  /** Request limits. */
  limits: LimitsConfig;
}
