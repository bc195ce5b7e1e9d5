/**
 * Pure placement algorithms for replicated, shuffle-sharded and cell
 * namespaces. No I/O, no clock; deterministic (given a seed where one is
 * taken). See `docs/placement.md` for the design and how they are wired.
 *
 * - {@linkcode planReplicas}: k distinct owners per shard, zones first,
 *   balanced counts, minimal change within a move budget.
 * - {@linkcode planShuffle}: owner sets of which any two share at most m
 *   executors (Route 53's shuffle sharding), the achieved overlap reported.
 * - {@linkcode ownerSet}: the stateless (rendezvous-hash) owner set a client
 *   can compute alone, with {@linkcode stableHash} underneath.
 * - {@linkcode blastRadius}, {@linkcode measureOverlap},
 *   {@linkcode combinations}, {@linkcode overlapPackingBound}: measuring.
 * - {@linkcode placeTenant}, {@linkcode placeNewTenants}: sticky cells.
 *
 * @example Shuffle-shard, then measure the blast radius
 * ```ts
 * import assert from "node:assert/strict";
 * import { blastRadius, combinations, planShuffle } from "./mod.ts";
 *
 * const executors = Array.from({ length: 8 }, (_, i) => `worker-${i}`);
 * const shards = Array.from({ length: Number(combinations(8, 2)) }, (_, i) => `customer-${i}`);
 * const plan = planShuffle(
 *   { shards, owners: shards.map(() => []), executors },
 *   { replicas: 2, maxOverlap: 1 },
 * );
 * assert.equal(blastRadius(plan.owners, executors).pair.maxLost, 1 / 28);
 * ```
 *
 * @module
 */

export type {
  ExecutorLike,
  OwnerSetInput,
  OwnerSetOptions,
  OwnerSetPlan,
  PlacementExecutor,
  ShufflePlan,
} from "./types.ts";
export { planReplicas } from "./replicas.ts";
export { planShuffle, type ShuffleOptions } from "./shuffle.ts";
export {
  ownerSet,
  ownerSetFunction,
  type OwnerSetFunctionOptions,
  rendezvousWeight,
} from "./owner_set.ts";
export { mix32, stableHash } from "./hash.ts";
export { type BlastRadius, blastRadius } from "./blast_radius.ts";
export { measureOverlap, type MeasureOverlapOptions, type OverlapReport } from "./overlap.ts";
export { combinations, overlapPackingBound } from "./combinations.ts";
export {
  type CellLoad,
  type CellOptions,
  type NewTenantsInput,
  type NewTenantsOptions,
  placeNewTenants,
  placeTenant,
  type TenantPlacement,
} from "./cells.ts";
