/**
 * The typed namespace entries of the configuration: one interface per kind
 * (fixed, ephemeral, cells) with ownership and replication as typed
 * sub-objects, every default applied. `namespace_schema.ts` reads YAML into
 * them; `src/policy/namespace_policy.ts` turns one into a namespace's policy.
 *
 * @module
 */
import type { RangeSettings } from "./range_settings.ts";

/**
 * Shape of a namespace's shard keys on the wire (`NamespaceConfig.type`): a
 * static set, or keys created on first lookup (cells namespaces are ephemeral).
 */
export type NamespaceType = "fixed" | "ephemeral";

/** What kind of namespace it is: decides where its keys come from and how they are placed. */
export type NamespaceKind = "fixed" | "ephemeral" | "cells" | "range";

/** Load balancer that plans a namespace's moves. */
export type LoadBalancerName = "naive" | "greedy";

/**
 * How strictly a namespace keeps one owner per shard (`ownership`,
 * `ownershipLease`). `available`: executors keep their shards while the
 * service is unreachable and moves may briefly overlap. `exclusive`: a shard
 * never runs on two executors at once (see docs/ownership.md).
 */
export type OwnershipConfig =
  | { readonly mode: "available" }
  | {
    readonly mode: "exclusive";
    /** The ownership lease (`ownershipLease`); absent: `process.heartbeatTTL`. */
    readonly leaseMs?: number;
  };

/**
 * Owner sets of a replicated namespace (`replicas` above 1, `placement`,
 * `maxOverlap`, `zoneKey`): each shard gets `replicas` distinct executors,
 * spread over fault zones first; placed by the replica or shuffle planner,
 * never by a load balancer.
 */
export type ReplicationConfig =
  & {
    /** Owners per shard, 2 or more. */
    readonly replicas: number;
    /** Metadata key of an executor's fault zone (default `zone`). */
    readonly zoneKey: string;
  }
  & (
    | { readonly placement: "balanced" }
    | {
      readonly placement: "shuffle";
      /** Most executors any two shards' owner sets may share. */
      readonly maxOverlap: number;
    }
  );

/** What fixed and ephemeral namespaces share: how their shards are owned and balanced. */
export interface ShardedNamespaceConfig {
  /** Unique namespace name, matching `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`. */
  readonly name: string;
  /** Load balancer (`loadBalancer`, default `greedy`); unused with `replication`. */
  readonly loadBalancer: LoadBalancerName;
  /**
   * Balancing moves per pass for this namespace (`maxMovesPerPass`), overriding
   * `process.maxMovesPerPass`; 0 keeps shards where they are placed (sticky).
   */
  readonly maxMovesPerPass?: number;
  /**
   * While an eligible executor joined less than this long ago, balancing
   * waits; unowned shards are placed at once (`settleWindow`; absent: 3s; 0: off).
   */
  readonly settleWindowMs?: number;
  /**
   * While the namespace has never had an owner (a first deploy), placement
   * waits until the executors have stopped joining for the settling window,
   * but at most this long after the first one joined (`coldStartWait`;
   * absent: 30s; 0, or a `settleWindow` of 0: off, shards are placed at once).
   */
  readonly coldStartWaitMs?: number;
  /**
   * Load-aware balancing starts only for a gap between the most and least
   * loaded executors above this share of the mean executor load
   * (`minImprovement`; absent: 0.1; 0: off).
   */
  readonly minImprovement?: number;
  /**
   * A shard moved is not moved again by balancing for this long; moves off a
   * lost or drained executor ignore it (`shardCooldown`; absent: 1m; 0: off).
   */
  readonly shardCooldownMs?: number;
  /**
   * Warm handover: how long a planned move waits for its incoming owner to
   * prepare the shard (`prepareTimeout`; absent: 30s; 0: warm handover off,
   * every move is cold). A balancing move not prepared in time is cancelled;
   * a move the old owner must make (drain, shutdown) then completes cold.
   */
  readonly prepareTimeoutMs?: number;
  /**
   * Warm handover: most shards one executor prepares at once
   * (`maxPreparesPerExecutor`; absent: 32).
   */
  readonly maxPreparesPerExecutor?: number;
  /** Single owners only (never with `replication`): available or exclusive. */
  readonly ownership: OwnershipConfig;
  /** Present exactly when `replicas` is above 1. */
  readonly replication?: ReplicationConfig;
  /**
   * Largest share (0 to 1) of the live executors that operator drains may
   * take out at once (`maxDrainedShare`); unset means 0.5. A drain past it is
   * refused unless forced.
   */
  readonly maxDrainedShare?: number;
  /**
   * Poison shards: a shard is quarantined once this many distinct executors
   * failed with it within `quarantineWindow` (`quarantineThreshold`; unset
   * means 3, 0 turns quarantine off).
   */
  readonly quarantineThreshold?: number;
  /** Poison shards: how far back failures count (`quarantineWindow`; unset means 10 min). */
  readonly quarantineWindowMs?: number;
  /** `executorCapacity`: most shards and load units per executor; absent: no limit. */
  readonly executorCapacity?: ExecutorCapacityConfig;
  /** `massLoss`: when the mass-loss brake engages; absent: the defaults. */
  readonly massLoss?: MassLossConfig;
}

/** `executorCapacity` of a namespace (an executor may declare its own in its heartbeat). */
export interface ExecutorCapacityConfig {
  /** Most shards per executor. */
  readonly shards?: number;
  /** Most load units per executor (the sum of its shards' reported loads). */
  readonly load?: number;
}

/** `massLoss` of a namespace (docs/operations.md, "Mass loss"). */
export interface MassLossConfig {
  /** The brake engages when more than this share of the serving executors is lost (1: never). */
  readonly share?: number;
  /** Within this long (ms). */
  readonly windowMs?: number;
  /** And at least this many executors. */
  readonly minLost?: number;
}

/** `type: fixed`: shards `"0"`..`"shardNum-1"`, known up front. */
export interface FixedNamespaceConfig extends ShardedNamespaceConfig {
  /** Discriminant. */
  readonly kind: "fixed";
  /** Number of shards (`shardNum`). */
  readonly shardNum: number;
}

/** `type: ephemeral`: a shard is created on its first lookup and removed when reported DONE. */
export interface EphemeralNamespaceConfig extends ShardedNamespaceConfig {
  /** Discriminant. */
  readonly kind: "ephemeral";
  /**
   * Cap on the namespace's shards, owned plus requested (`maxShards`),
   * overriding `limits.maxEphemeralShards`. GetShardOwner for a new key past
   * it answers RESOURCE_EXHAUSTED.
   */
  readonly maxShards?: number;
}

/**
 * `type: ephemeral` with `mode: cells`: the shard key is a tenant and the
 * executors are cells; a tenant is placed once on the least-loaded cell and
 * never moved by balancing. Always available ownership, one owner.
 */
export interface CellsNamespaceConfig {
  /** Discriminant. */
  readonly kind: "cells";
  /** Unique namespace name. */
  readonly name: string;
  /** Cap on the namespace's tenants, as for an ephemeral namespace (`maxShards`). */
  readonly maxShards?: number;
  /**
   * Tenant → cell pins (`pins`, default none): a pinned tenant goes to its
   * cell, and a cell that is the target of a pin takes no other new tenant.
   */
  readonly pins: Readonly<Record<string, string>>;
  /**
   * Largest share (0 to 1) of the live executors that operator drains may
   * take out at once (`maxDrainedShare`); unset means 0.5. A drain past it is
   * refused unless forced.
   */
  readonly maxDrainedShare?: number;
  /**
   * Poison shards: a shard is quarantined once this many distinct executors
   * failed with it within `quarantineWindow` (`quarantineThreshold`; unset
   * means 3, 0 turns quarantine off).
   */
  readonly quarantineThreshold?: number;
  /** Poison shards: how far back failures count (`quarantineWindow`; unset means 10 min). */
  readonly quarantineWindowMs?: number;
}

/**
 * `type: range`: keys are any strings, hashed onto a 64-bit line cut into
 * slices; the range planner splits hot slices, merges cold ones, isolates
 * hot keys and places the slices (docs/placement.md, "Key ranges"). A
 * slice's id is its shard key. Available ownership only.
 */
export interface RangeNamespaceConfig {
  /** Discriminant. */
  readonly kind: "range";
  /** Unique namespace name. */
  readonly name: string;
  /** The `range:` settings, every default applied. */
  readonly range: RangeSettings;
  /** Metadata key of an executor's fault zone: a hot key's owners are spread over zones (default `zone`). */
  readonly zoneKey: string;
  /**
   * `ownership: exclusive` (with its lease): a key is never served by two
   * executors at once, so a hot key is not replicated and a range changes
   * owner only through a handover. Absent: available.
   */
  readonly ownership?: Extract<OwnershipConfig, { readonly mode: "exclusive" }>;
  /** Warm handover of slice moves (`prepareTimeout`; 0 turns it off), as for a fixed namespace. */
  readonly prepareTimeoutMs?: number;
  /** Most slices one executor prepares at once (`maxPreparesPerExecutor`). */
  readonly maxPreparesPerExecutor?: number;
  /** As for a fixed namespace (`maxDrainedShare`); unset means 0.5. */
  readonly maxDrainedShare?: number;
  /** The mass-loss brake (`massLoss`), as for a fixed namespace. */
  readonly massLoss?: MassLossConfig;
}

/** One entry of `shardDistribution.namespaces`, by kind. */
export type NamespaceConfig =
  | FixedNamespaceConfig
  | EphemeralNamespaceConfig
  | CellsNamespaceConfig
  | RangeNamespaceConfig;

/** A definition as written: plain YAML data (`name`, `type`, `shardNum`, ...). */
export type NamespaceSpec = Readonly<Record<string, unknown>>;
