/**
 * The policy of a key-range namespace (`type: range`): keys hashed onto
 * slices, available or exclusive ownership, and the range planner with the
 * entry's `range:` settings and zone key (and, when exclusive, the lease its
 * handovers wait for).
 *
 * @module
 */
import type { RangeNamespaceConfig } from "../config/mod.ts";
import type { RangesPolicy, WarmPlanning } from "../plan/mod.ts";

/**
 * Keys of a key-range namespace: any strings, hashed onto slices of the
 * 64-bit line; the shard keys are the slice ids, which the leader creates
 * and retires as it splits and merges.
 */
export interface RangeKeys {
  /** Discriminant. */
  readonly kind: "range";
}

/** What a key-range namespace's policy adds to the name and budgets every policy has. */
export interface RangePolicyParts {
  /** Slices of the hash line. */
  readonly keys: RangeKeys;
  /** Available, or exclusive with its lease (by default the heartbeat TTL). */
  readonly ownership: { readonly mode: "available" } | {
    readonly mode: "exclusive";
    readonly leaseMs: number;
  };
  /** The range planner and its settings. */
  readonly placement: RangesPolicy;
}

/**
 * The policy of key-range namespace `config`: `common` (its name and
 * budgets, as for every namespace) with range keys, available ownership and
 * the `ranges` placement, which forgets stale executors as the budgets say;
 * an exclusive one's handovers rely on at most `maxReliedOn` expired
 * executors per commit. `warm` (the namespace's warm handover settings, when
 * on) applies to both: when exclusive, a prepared slice is switched by a
 * handover.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RANGE_DEFAULTS } from "../config/range_settings.ts";
 * import { rangePolicy } from "./range_policy.ts";
 *
 * const config = { kind: "range", name: "keys", range: RANGE_DEFAULTS, zoneKey: "zone" } as const;
 * const budgets = { executorRetentionMs: 60_000, heartbeatTtlMs: 2_000 };
 * const policy = rangePolicy(config, { name: "keys", budgets }, 100);
 * assert.deepEqual(policy.keys, { kind: "range" });
 * assert.deepEqual(policy.ownership, { mode: "available" });
 * assert.deepEqual(policy.placement, {
 *   kind: "ranges",
 *   settings: RANGE_DEFAULTS,
 *   zoneKey: "zone",
 *   executorRetentionMs: 60_000,
 * });
 * const exclusive = rangePolicy({ ...config, ownership: { mode: "exclusive" } }, { name: "keys", budgets }, 100);
 * assert.deepEqual(exclusive.ownership, { mode: "exclusive", leaseMs: 2_000 });
 * assert.deepEqual(exclusive.placement.exclusive, { leaseMs: 2_000, maxReliedOn: 100 });
 * ```
 */
export function rangePolicy<
  Common extends {
    readonly budgets: { readonly executorRetentionMs: number; readonly heartbeatTtlMs: number };
  },
>(
  config: RangeNamespaceConfig,
  common: Common,
  maxReliedOn: number,
  warm?: WarmPlanning,
): Common & RangePolicyParts {
  const leaseMs = config.ownership
    ? config.ownership.leaseMs ?? common.budgets.heartbeatTtlMs
    : undefined;
  return {
    ...common,
    keys: { kind: "range" },
    ownership: leaseMs === undefined ? { mode: "available" } : { mode: "exclusive", leaseMs },
    placement: {
      kind: "ranges",
      settings: config.range,
      zoneKey: config.zoneKey,
      executorRetentionMs: common.budgets.executorRetentionMs,
      ...(leaseMs === undefined ? {} : { exclusive: { leaseMs, maxReliedOn } }),
      // Warm handover of slice moves (when exclusive, the switch is a handover).
      ...(warm ? { warm } : {}),
    },
  };
}
