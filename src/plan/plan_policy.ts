/**
 * How a namespace's passes plan, decided once from its configuration: which
 * planner runs and with what knobs. {@linkcode planPass} dispatches on
 * `kind`, in one place.
 *
 * @module
 */
import type { LoadBalancer } from "../loadbalancer/mod.ts";
import type { ChurnRules } from "./churn_rules.ts";
import type { Capacity } from "../shared/capacity.ts";
import type { RangeSettings } from "../config/range_settings.ts";

export type { ChurnRules } from "./churn_rules.ts";

/** Where a namespace's shard keys come from. */
export type ShardUniverse =
  | { readonly kind: "fixed"; readonly shardNum: number }
  | { readonly kind: "ephemeral" };

/** Exclusive ownership: shards move only through handovers. */
export interface ExclusivePlanning {
  /** An executor keeps its shards at most this long after sending its last recorded heartbeat. */
  readonly leaseMs: number;
  /** Most executors one commit may rely on having expired (the store's bound). */
  readonly maxReliedOn: number;
}

/** Warm handover: planned moves to executors that understand it are prepared first. */
export interface WarmPlanning {
  /** How long a move waits for its incoming owner to prepare (monotonic ms; above 0). */
  readonly prepareTimeoutMs: number;
  /** Most shards one executor prepares at once. */
  readonly maxPreparesPerExecutor: number;
}

/** Single owners placed by a load balancer. */
export interface BalancedPolicy {
  /** Discriminant. */
  readonly kind: "balanced";
  /** Where the keys come from. */
  readonly universe: ShardUniverse;
  /** The load balancer. */
  readonly balancer: LoadBalancer;
  /** Balancing moves allowed per pass. */
  readonly maxMoves: number;
  /** Stale executors that own nothing are forgotten after this long unseen. */
  readonly executorRetentionMs: number;
  /** Set for an exclusive namespace. */
  readonly exclusive?: ExclusivePlanning;
  /** Settling window, hysteresis and shard cooldown; absent: none of them. */
  readonly churn?: ChurnRules;
  /** Warm handover; absent: off, every move is cold. */
  readonly warm?: WarmPlanning;
  /**
   * Most shards a pass gives one executor (`limits.maxShardReportsPerHeartbeat`:
   * it must be able to report them all); absent: no cap. See capacity_clamp.ts.
   */
  readonly maxShardsPerExecutor?: number;
  /**
   * Most shards and load units per executor (`executorCapacity`), unless the
   * executor declares its own; absent: none. See executor_capacity.ts.
   */
  readonly capacity?: Capacity;
}

/** Owner sets of a replicated namespace, placed by the replica or shuffle planner. */
export interface ReplicatedPolicy {
  /** Discriminant. */
  readonly kind: "replicated";
  /** Where the keys come from. */
  readonly universe: ShardUniverse;
  /** Owners per shard (2 or more). */
  readonly replicas: number;
  /** `balanced` (planReplicas) or `shuffle` (planShuffle). */
  readonly placement: "balanced" | "shuffle";
  /** Shuffle only: most executors two shards' sets may share. */
  readonly maxOverlap?: number;
  /** Metadata key of the fault zone. */
  readonly zoneKey: string;
  /** Seed of the shuffle search, the same for every leader of the namespace. */
  readonly seed: number;
  /** Owner replacements allowed per pass (balancing, spreading). */
  readonly maxMoves: number;
  /** Stale executors that own nothing are forgotten after this long unseen. */
  readonly executorRetentionMs: number;
  /** The settling window (the placement planners have no cooldown or load hysteresis); absent: none. */
  readonly churn?: ChurnRules;
}

/** Tenants of a cells namespace: sticky placement, never balanced. */
export interface CellsPolicy {
  /** Discriminant. */
  readonly kind: "cells";
  /** Tenant → cell pins. */
  readonly pins: ReadonlyMap<string, string>;
  /** Stale cells that hold no tenant are forgotten after this long unseen. */
  readonly executorRetentionMs: number;
}

/** Slices of the hash line, split, merged and placed by the range planner. */
export interface RangesPolicy {
  /** Discriminant. */
  readonly kind: "ranges";
  /** The `range:` settings. */
  readonly settings: RangeSettings;
  /** Metadata key of an executor's fault zone: a hot key's owners are spread over zones. */
  readonly zoneKey: string;
  /** Stale executors that own nothing are forgotten after this long unseen. */
  readonly executorRetentionMs: number;
  /** Exclusive ownership: a slice changes owner only through a handover; absent: available. */
  readonly exclusive?: ExclusivePlanning;
  /** Warm handover of slice moves (available namespaces); absent: off, every move is cold. */
  readonly warm?: WarmPlanning;
}

/** How a namespace plans. */
export type PlanPolicy = BalancedPolicy | ReplicatedPolicy | CellsPolicy | RangesPolicy;
