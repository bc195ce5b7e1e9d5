/**
 * Where a namespace's behaviour comes from: its configuration entry, the
 * instance's `process` settings and request limits, read once into one value.
 * Every component of the namespace (routing, heartbeat answers, the leader's
 * passes, operator checks) reads this policy; none reads the configuration.
 *
 * @module
 */
import {
  type LimitsConfig,
  type NamespaceConfig,
  type NamespaceKind,
  type NamespaceType,
  namespaceType,
  type ProcessConfig,
} from "../config/mod.ts";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import { type PlanPolicy, replicationSeed, type ShardUniverse } from "../plan/mod.ts";
import type { LivenessOptions } from "../state/namespace_state.ts";

/** Default `settleWindow`: three heartbeat intervals of the SDK's default 1 s. */
export const DEFAULT_SETTLE_WINDOW_MS = 3_000;
/** Default `minImprovement`: a 10% gap of the mean executor load starts balancing. */
export const DEFAULT_MIN_IMPROVEMENT = 0.1;
/** Default `shardCooldown`: one minute, like upstream GREEDY. */
export const DEFAULT_SHARD_COOLDOWN_MS = 60_000;

/** A namespace's behaviour, decided once. */
export interface NamespacePolicy {
  /** Namespace name. */
  readonly name: string;
  /** fixed, ephemeral or cells. */
  readonly kind: NamespaceKind;
  /** Its `type` on the wire (cells namespaces are ephemeral). */
  readonly type: NamespaceType;
  /** Number of shards of a fixed namespace; 0 otherwise. */
  readonly shardNum: number;
  /** Cap on the shards of an ephemeral or cells namespace; undefined: none (fixed). */
  readonly maxShards: number | undefined;
  /** How liveness is judged. */
  readonly liveness: LivenessOptions;
  /** The ownership lease of an exclusive namespace; undefined: available ownership. */
  readonly ownershipLeaseMs: number | undefined;
  /** Owners per shard (1 unless replicated). */
  readonly replicas: number;
  /** Shuffle-sharded namespaces: the overlap bound. */
  readonly maxOverlap: number | undefined;
  /** Cells namespaces: tenant → cell pins (empty otherwise). */
  readonly pins: ReadonlyMap<string, string>;
  /** How the leader's passes plan. */
  readonly plan: PlanPolicy;
  /** Longest time between two passes. */
  readonly periodMs: number;
  /** Least time between two passes. */
  readonly cooldownMs: number;
  /** Stale executors that own nothing are forgotten after this long unseen. */
  readonly executorRetentionMs: number;
  /** The configuration it was read from. */
  readonly config: NamespaceConfig;
}

/** What a policy is read from besides the namespace's own entry. */
export interface PolicyContext {
  /** `shardDistribution.process`. */
  readonly process: ProcessConfig;
  /** `limits`. */
  readonly limits:
    & Pick<LimitsConfig, "maxEphemeralShards">
    & Partial<Pick<LimitsConfig, "maxShardReportsPerHeartbeat">>;
  /** Most executors one commit may rely on having expired (the main store's bound). */
  readonly maxReliedOn: number;
}

/**
 * Reads a namespace's policy from its configuration.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { namespacePolicy } from "./namespace_policy.ts";
 *
 * const policy = namespacePolicy(
 *   {
 *     kind: "fixed",
 *     name: "orders",
 *     shardNum: 8,
 *     loadBalancer: "greedy",
 *     ownership: { mode: "exclusive" },
 *   },
 *   {
 *     process: { periodMs: 1_000, heartbeatTtlMs: 2_000, rebalanceCooldownMs: 100, maxMovesPerPass: 1_000 },
 *     limits: { maxEphemeralShards: 100_000 },
 *     maxReliedOn: 100,
 *   },
 * );
 * assert.equal(policy.ownershipLeaseMs, 2_000); // the heartbeat TTL when no lease is set
 * assert.equal(policy.plan.kind, "balanced");
 * ```
 */
export function namespacePolicy(config: NamespaceConfig, context: PolicyContext): NamespacePolicy {
  const { process } = context;
  const executorRetentionMs = Math.max(10 * process.heartbeatTtlMs, 60_000);
  const leaseMs = config.kind !== "cells" && config.ownership.mode === "exclusive"
    ? config.ownership.leaseMs ?? process.heartbeatTtlMs
    : undefined;
  const common = {
    name: config.name,
    kind: config.kind,
    type: namespaceType(config),
    shardNum: config.kind === "fixed" ? config.shardNum : 0,
    maxShards: config.kind === "fixed"
      ? undefined
      : config.maxShards ?? context.limits.maxEphemeralShards,
    liveness: leaseMs === undefined
      ? { heartbeatTtlMs: process.heartbeatTtlMs }
      : { heartbeatTtlMs: process.heartbeatTtlMs, ownershipLeaseMs: leaseMs },
    ownershipLeaseMs: leaseMs,
    periodMs: process.periodMs,
    cooldownMs: process.rebalanceCooldownMs,
    executorRetentionMs,
    config,
  };
  if (config.kind === "cells") {
    const pins = new Map(Object.entries(config.pins));
    return {
      ...common,
      replicas: 1,
      maxOverlap: undefined,
      pins,
      plan: { kind: "cells", pins, executorRetentionMs },
    };
  }
  const universe: ShardUniverse = config.kind === "fixed"
    ? { kind: "fixed", shardNum: config.shardNum }
    : { kind: "ephemeral" };
  const maxMoves = config.maxMovesPerPass ?? process.maxMovesPerPass;
  const churn = {
    settleWindowMs: config.settleWindowMs ?? DEFAULT_SETTLE_WINDOW_MS,
    coldStartWaitMs: config.coldStartWaitMs ?? 0,
    minImprovement: config.minImprovement ?? DEFAULT_MIN_IMPROVEMENT,
    shardCooldownMs: config.shardCooldownMs ?? DEFAULT_SHARD_COOLDOWN_MS,
  };
  const replication = config.replication;
  if (replication) {
    const maxOverlap = replication.placement === "shuffle" ? replication.maxOverlap : undefined;
    return {
      ...common,
      replicas: replication.replicas,
      maxOverlap,
      pins: new Map(),
      plan: {
        kind: "replicated",
        universe,
        replicas: replication.replicas,
        placement: replication.placement,
        ...(maxOverlap === undefined ? {} : { maxOverlap }),
        zoneKey: replication.zoneKey,
        seed: replicationSeed(config.name),
        maxMoves,
        executorRetentionMs,
        churn,
      },
    };
  }
  return {
    ...common,
    replicas: 1,
    maxOverlap: undefined,
    pins: new Map(),
    plan: {
      kind: "balanced",
      universe,
      balancer: loadBalancerFor(config.loadBalancer),
      maxMoves,
      executorRetentionMs,
      churn,
      ...(context.limits.maxShardReportsPerHeartbeat === undefined
        ? {}
        : { maxShardsPerExecutor: context.limits.maxShardReportsPerHeartbeat }),
      ...(leaseMs === undefined
        ? {}
        : { exclusive: { leaseMs, maxReliedOn: context.maxReliedOn } }),
    },
  };
}
