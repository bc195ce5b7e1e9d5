/**
 * Where a namespace's behaviour comes from: its configuration entry, the
 * instance's `process` settings and request limits, read once into one value
 * of typed parts: its keys (fixed, ephemeral or cells), its ownership
 * (available, or exclusive with its lease), its placement (the planner and
 * its knobs) and its budgets (timings and the drain budget). Every component
 * of the namespace (routing, heartbeat answers, the leader's passes, operator
 * checks) reads this policy; none reads the configuration entry, and the
 * policy does not keep it.
 *
 * @module
 */
import type { LimitsConfig, NamespaceConfig, ProcessConfig } from "../config/mod.ts";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import {
  type BalancedPolicy,
  type CellsPolicy,
  type RangesPolicy,
  type ReplicatedPolicy,
  replicationSeed,
  type ShardUniverse,
  type WarmPlanning,
} from "../plan/mod.ts";
import { DEFAULT_MAX_DRAINED_SHARE } from "../plan/disruption_budget.ts";
import { DEFAULT_QUARANTINE, type QuarantineSettings } from "../plan/mod.ts";
import type { LivenessOptions } from "../state/namespace_state.ts";
import { type RangeKeys, rangePolicy } from "./range_policy.ts";

export type { RangeKeys } from "./range_policy.ts";

/** Default `settleWindow`: three heartbeat intervals of the SDK's default 1 s. */
export const DEFAULT_SETTLE_WINDOW_MS = 3_000;
/**
 * Default `coldStartWait`: a first deploy waits at most 30 s after its first
 * executor joined for the fleet to stop joining (as Kafka's
 * `group.initial.rebalance.delay.ms`, bounded).
 */
export const DEFAULT_COLD_START_WAIT_MS = 30_000;
/** Default `minImprovement`: a 10% gap of the mean executor load starts balancing. */
export const DEFAULT_MIN_IMPROVEMENT = 0.1;
/** Default `shardCooldown`: one minute, like upstream GREEDY. */
export const DEFAULT_SHARD_COOLDOWN_MS = 60_000;
/** Default `prepareTimeout`: a warm handover's incoming owner has 30 s to prepare the shard. */
export const DEFAULT_PREPARE_TIMEOUT_MS = 30_000;
/** Default `maxPreparesPerExecutor`: one executor prepares at most 32 shards at once. */
export const DEFAULT_MAX_PREPARES_PER_EXECUTOR = 32;

/**
 * Default `massLoss.share`: losing more than half of the serving executors at
 * once engages the brake (a zone of three, a third, fails over untouched).
 */
export const DEFAULT_MASS_LOSS_SHARE = 0.5;
/**
 * Default `massLoss.minLost`: fewer than three executors lost together (one
 * host, a pair) is what the survivors are there for, even in a small fleet.
 */
export const DEFAULT_MASS_LOSS_MIN_LOST = 3;
/** Default `massLoss.window`, in heartbeat TTLs: losses within 2 × `heartbeatTTL` count together. */
export const DEFAULT_MASS_LOSS_WINDOW_TTLS = 2;

/** When the mass-loss brake engages (leader/process/mass_loss_brake.ts). */
export interface MassLossRule {
  /** More than this share of the serving executors lost (1: never). */
  readonly share: number;
  /** Within this long (ms). */
  readonly windowMs: number;
  /** And at least this many. */
  readonly minLost: number;
}

/** Keys of a fixed namespace: `"0"`..`"shardNum-1"`, known up front. */
export interface FixedKeys {
  /** Discriminant. */
  readonly kind: "fixed";
  /** Number of shards. */
  readonly shardNum: number;
}

/** Keys of an ephemeral namespace: created on first lookup, removed when DONE. */
export interface EphemeralKeys {
  /** Discriminant. */
  readonly kind: "ephemeral";
  /** Cap on the namespace's shards, owned plus requested. */
  readonly maxShards: number;
}

/** Keys of a cells namespace: tenants, created on first lookup like ephemeral keys. */
export interface CellKeys {
  /** Discriminant. */
  readonly kind: "cells";
  /** Cap on the namespace's tenants, owned plus requested. */
  readonly maxShards: number;
}

/** Where a namespace's shard keys come from. */
export type KeyPolicy = FixedKeys | EphemeralKeys | CellKeys | RangeKeys;

/** Available ownership: executors keep their shards while the service is unreachable. */
export interface AvailableOwnership {
  /** Discriminant. */
  readonly mode: "available";
}

/** Exclusive ownership: a shard never runs on two executors at once. */
export interface ExclusiveOwnership {
  /** Discriminant. */
  readonly mode: "exclusive";
  /** The ownership lease: an executor keeps its shards at most this long unheard. */
  readonly leaseMs: number;
}

/** How strictly a namespace keeps one owner per shard. */
export type OwnershipPolicy = AvailableOwnership | ExclusiveOwnership;

/** Times and limits a namespace runs within. */
export interface PolicyBudgets {
  /** An executor unseen for longer is stale (`process.heartbeatTTL`). */
  readonly heartbeatTtlMs: number;
  /** Longest time between two passes. */
  readonly periodMs: number;
  /** Least time between two passes. */
  readonly cooldownMs: number;
  /** Stale executors that own nothing are forgotten after this long unseen. */
  readonly executorRetentionMs: number;
  /** Largest share (0 to 1) of the live executors operator drains may take out at once. */
  readonly maxDrainedShare: number;
  /** When the mass-loss brake engages; absent (cells namespaces, policies built by hand): never. */
  readonly massLoss?: MassLossRule;
  /** Poison-shard quarantine (plan/poison_detector.ts). @default {none: no quarantine} */
  readonly quarantine?: QuarantineSettings;
}

/** What every policy has. */
interface PolicyCommon {
  /** Namespace name. */
  readonly name: string;
  /** Timings and the drain budget. */
  readonly budgets: PolicyBudgets;
}

/** A fixed or ephemeral namespace: single owners by a load balancer, or replicated owner sets. */
export interface ShardedNamespacePolicy extends PolicyCommon {
  /** Fixed or ephemeral keys. */
  readonly keys: FixedKeys | EphemeralKeys;
  /** Available or exclusive. */
  readonly ownership: OwnershipPolicy;
  /** How the leader's passes plan: balanced (exclusive when `ownership` is) or replicated. */
  readonly placement: BalancedPolicy | ReplicatedPolicy;
}

/** A cells namespace: tenants placed once on a cell, always available, one owner. */
export interface CellsNamespacePolicy extends PolicyCommon {
  /** Tenants. */
  readonly keys: CellKeys;
  /** Always available. */
  readonly ownership: AvailableOwnership;
  /** Sticky placement with the tenant → cell pins. */
  readonly placement: CellsPolicy;
}

/** A key-range namespace: slices split, merged and placed by the range planner. */
export interface RangeNamespacePolicy extends PolicyCommon {
  /** Slices of the hash line. */
  readonly keys: RangeKeys;
  /** Available, or exclusive with its lease. */
  readonly ownership: OwnershipPolicy;
  /** The range planner and its settings. */
  readonly placement: RangesPolicy;
}

/**
 * A namespace's behaviour, decided once. Its parts are discriminated unions:
 * read `keys.kind`, `ownership.mode` and `placement.kind`, and the fields of
 * that kind.
 */
export type NamespacePolicy = ShardedNamespacePolicy | CellsNamespacePolicy | RangeNamespacePolicy;

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
  /**
   * Whether the store's format has warm handover records (a store still at
   * release 0.1.0's format 1 does not: warm handover is off there, whatever
   * `prepareTimeout` says; docs/operations.md, "Upgrades and rollbacks").
   * @default {true}
   */
  readonly warmHandoverFormat?: boolean;
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
 * assert.deepEqual(policy.keys, { kind: "fixed", shardNum: 8 });
 * // The heartbeat TTL when no lease is set:
 * assert.deepEqual(policy.ownership, { mode: "exclusive", leaseMs: 2_000 });
 * assert.equal(policy.placement.kind, "balanced");
 * assert.equal(policy.budgets.maxDrainedShare, 0.5);
 * ```
 */
export function namespacePolicy(config: NamespaceConfig, context: PolicyContext): NamespacePolicy {
  const { process } = context;
  const executorRetentionMs = Math.max(10 * process.heartbeatTtlMs, 60_000);
  const common: PolicyCommon = {
    name: config.name,
    budgets: {
      heartbeatTtlMs: process.heartbeatTtlMs,
      periodMs: process.periodMs,
      cooldownMs: process.rebalanceCooldownMs,
      executorRetentionMs,
      maxDrainedShare: config.maxDrainedShare ?? DEFAULT_MAX_DRAINED_SHARE,
      ...(config.kind === "cells" ? {} : {
        massLoss: {
          share: config.massLoss?.share ?? DEFAULT_MASS_LOSS_SHARE,
          windowMs: config.massLoss?.windowMs ??
            DEFAULT_MASS_LOSS_WINDOW_TTLS * process.heartbeatTtlMs,
          minLost: config.massLoss?.minLost ?? DEFAULT_MASS_LOSS_MIN_LOST,
        },
      }),
      // Slices are not quarantined: a poison key is a hot key's problem, not a slice's.
      quarantine: quarantineSettings(
        config.kind === "range" ? { quarantineThreshold: 0 } : config,
        process.heartbeatTtlMs,
      ),
    },
  };
  if (config.kind === "range") {
    const warm = context.warmHandoverFormat === false ? undefined : warmPlanning(config).warm;
    return rangePolicy(config, common, context.maxReliedOn, warm);
  }
  if (config.kind === "cells") {
    return {
      ...common,
      keys: { kind: "cells", maxShards: config.maxShards ?? context.limits.maxEphemeralShards },
      ownership: { mode: "available" },
      placement: {
        kind: "cells",
        pins: new Map(Object.entries(config.pins)),
        executorRetentionMs,
      },
    };
  }
  const keys: FixedKeys | EphemeralKeys = config.kind === "fixed"
    ? { kind: "fixed", shardNum: config.shardNum }
    : { kind: "ephemeral", maxShards: config.maxShards ?? context.limits.maxEphemeralShards };
  const ownership: OwnershipPolicy = config.ownership.mode === "exclusive"
    ? { mode: "exclusive", leaseMs: config.ownership.leaseMs ?? process.heartbeatTtlMs }
    : { mode: "available" };
  const universe: ShardUniverse = keys.kind === "fixed"
    ? { kind: "fixed", shardNum: keys.shardNum }
    : { kind: "ephemeral" };
  const maxMoves = config.maxMovesPerPass ?? process.maxMovesPerPass;
  const churn = {
    settleWindowMs: config.settleWindowMs ?? DEFAULT_SETTLE_WINDOW_MS,
    coldStartWaitMs: config.coldStartWaitMs ?? DEFAULT_COLD_START_WAIT_MS,
    minImprovement: config.minImprovement ?? DEFAULT_MIN_IMPROVEMENT,
    shardCooldownMs: config.shardCooldownMs ?? DEFAULT_SHARD_COOLDOWN_MS,
  };
  const replication = config.replication;
  if (replication) {
    const maxOverlap = replication.placement === "shuffle" ? replication.maxOverlap : undefined;
    return {
      ...common,
      keys,
      ownership,
      placement: {
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
    keys,
    ownership,
    placement: {
      kind: "balanced",
      universe,
      balancer: loadBalancerFor(config.loadBalancer),
      maxMoves,
      executorRetentionMs,
      churn,
      ...(context.warmHandoverFormat === false ? {} : warmPlanning(config)),
      ...(config.executorCapacity ? { capacity: config.executorCapacity } : {}),
      ...(context.limits.maxShardReportsPerHeartbeat === undefined
        ? {}
        : { maxShardsPerExecutor: context.limits.maxShardReportsPerHeartbeat }),
      ...(ownership.mode === "available"
        ? {}
        : { exclusive: { leaseMs: ownership.leaseMs, maxReliedOn: context.maxReliedOn } }),
    },
  };
}

/**
 * How the namespace's picture judges liveness: the heartbeat TTL and, when
 * ownership is exclusive, its lease.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { livenessOf } from "./namespace_policy.ts";
 *
 * const budgets = { heartbeatTtlMs: 2_000, periodMs: 1_000, cooldownMs: 100, executorRetentionMs: 60_000, maxDrainedShare: 0.5 };
 * assert.deepEqual(livenessOf({ ownership: { mode: "available" }, budgets }), { heartbeatTtlMs: 2_000 });
 * assert.deepEqual(
 *   livenessOf({ ownership: { mode: "exclusive", leaseMs: 5_000 }, budgets }),
 *   { heartbeatTtlMs: 2_000, ownershipLeaseMs: 5_000 },
 * );
 * ```
 */
export function livenessOf(
  policy: Pick<NamespacePolicy, "ownership" | "budgets">,
): LivenessOptions {
  const { ownership, budgets } = policy;
  return ownership.mode === "exclusive"
    ? { heartbeatTtlMs: budgets.heartbeatTtlMs, ownershipLeaseMs: ownership.leaseMs }
    : { heartbeatTtlMs: budgets.heartbeatTtlMs };
}

/** The warm handover knobs of a namespace (none when `prepareTimeout` is 0). */
function warmPlanning(
  config: { readonly prepareTimeoutMs?: number; readonly maxPreparesPerExecutor?: number },
): { warm?: WarmPlanning } {
  const prepareTimeoutMs = config.prepareTimeoutMs ?? DEFAULT_PREPARE_TIMEOUT_MS;
  if (prepareTimeoutMs <= 0) return {};
  const maxPreparesPerExecutor = config.maxPreparesPerExecutor ?? DEFAULT_MAX_PREPARES_PER_EXECUTOR;
  return { warm: { prepareTimeoutMs, maxPreparesPerExecutor } };
}

/**
 * A namespace's poison-shard quarantine settings: `quarantineThreshold`
 * (default 3 executors, 0 off) and `quarantineWindow` (default 10 min) from
 * its entry; a lost executor counts against the shards it received within
 * twice the heartbeat TTL; a failure of more than 10% at once (executors lost
 * within half a TTL of each other) is fleet-wide.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quarantineSettings } from "./namespace_policy.ts";
 *
 * assert.deepEqual(quarantineSettings({ quarantineThreshold: 5 }, 2_000), {
 *   threshold: 5, windowMs: 600_000, recentMs: 4_000, massShare: 0.1, massWindowMs: 1_000,
 * });
 * ```
 */
export function quarantineSettings(
  config: { readonly quarantineThreshold?: number; readonly quarantineWindowMs?: number },
  heartbeatTtlMs: number,
): QuarantineSettings {
  return {
    threshold: config.quarantineThreshold ?? DEFAULT_QUARANTINE.threshold,
    windowMs: config.quarantineWindowMs ?? DEFAULT_QUARANTINE.windowMs,
    recentMs: 2 * heartbeatTtlMs,
    massShare: DEFAULT_QUARANTINE.massShare,
    massWindowMs: heartbeatTtlMs / 2,
  };
}
