/**
 * Types shared by the placement planners: executors with their metadata, the
 * input of one planning call, and the reports the planners return.
 *
 * @module
 */

/**
 * An eligible executor as the planners see it: its id and the metadata it
 * reported (the fault zone is read from it, under a configurable key).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { PlacementExecutor } from "./types.ts";
 *
 * const executor: PlacementExecutor = { id: "exec-1", metadata: { zone: "eu-1a" } };
 * assert.equal(executor.metadata?.zone, "eu-1a");
 * ```
 */
export interface PlacementExecutor {
  /** Executor id (unique). */
  readonly id: string;
  /** Reported metadata; the zone is `metadata[zoneKey]`. Missing means "no zone" (the zone ""). */
  readonly metadata?: Readonly<Record<string, string>>;
}

/**
 * An executor given either as a bare id (no zone) or with its metadata.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ExecutorLike } from "./types.ts";
 *
 * const executors: ExecutorLike[] = ["a", { id: "b", metadata: { zone: "z1" } }];
 * assert.equal(executors.length, 2);
 * ```
 */
export type ExecutorLike = string | PlacementExecutor;

/**
 * Input of one owner-set planning call; `owners` is index-aligned with
 * `shards`.
 *
 * @example Two shards, one with an owner that has since left
 * ```ts
 * import assert from "node:assert/strict";
 * import type { OwnerSetInput } from "./types.ts";
 *
 * const input: OwnerSetInput = {
 *   shards: ["a", "b"],
 *   owners: [["x", "gone"], []],
 *   executors: ["x", "y", "z"],
 * };
 * assert.equal(input.owners.length, input.shards.length);
 * ```
 */
export interface OwnerSetInput {
  /** Shard keys that must be owned (drained or deleted shards are already removed). */
  readonly shards: readonly string[];
  /** Current owner set of each shard, primary first. Ids that are not in `executors` (gone, stale, drained) are dropped. */
  readonly owners: readonly (readonly string[])[];
  /** Eligible executors (alive, ACTIVE, not drained), in any order: the planners sort them by id. */
  readonly executors: readonly ExecutorLike[];
}

/**
 * Options common to the owner-set planners.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { OwnerSetOptions } from "./types.ts";
 *
 * const options: OwnerSetOptions = { replicas: 3, zoneKey: "az", maxMoves: 50 };
 * assert.equal(options.replicas, 3);
 * ```
 */
export interface OwnerSetOptions {
  /** Distinct owners per shard (k ≥ 1). With fewer executors, every shard gets all of them. */
  readonly replicas: number;
  /**
   * Metadata key holding an executor's fault zone.
   * @default {"zone"}
   */
  readonly zoneKey?: string;
  /**
   * Most moves per call: replacing an owner that is still eligible (to spread
   * zones, to balance counts or to repair an overlap). Filling a missing
   * replica never counts. 0 forbids moves; `Infinity` means no limit.
   */
  readonly maxMoves?: number;
}

/**
 * What an owner-set planner decided, and how good it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planReplicas } from "./mod.ts";
 *
 * const plan = planReplicas({ shards: ["s"], owners: [[]], executors: ["a"] }, { replicas: 2 });
 * assert.equal(plan.replicas, 1);
 * assert.equal(plan.shortShards, 1);
 * ```
 */
export interface OwnerSetPlan {
  /** New owner set of every shard, index-aligned with the input; kept owners keep their order, so a surviving primary stays first. */
  readonly owners: string[][];
  /** Owners per shard actually given: `min(replicas, executors)`. */
  readonly replicas: number;
  /** Shards with fewer than the requested `replicas` owners (all of them when executors are too few). */
  readonly shortShards: number;
  /** Owners added to sets (replacements, new shards, moves). */
  readonly added: number;
  /** Owners dropped from sets (no longer eligible, surplus, moves). */
  readonly removed: number;
  /** Eligible owners replaced (counted against `maxMoves`). */
  readonly moves: number;
  /** Shards whose owners are not spread over zones as far as the zones allow (0 unless the move budget ran out). */
  readonly zoneSpreadViolations: number;
}

/**
 * What the shuffle-sharding planner decided, with the overlap it achieved.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planShuffle } from "./mod.ts";
 *
 * const plan = planShuffle(
 *   { shards: ["a", "b"], owners: [[], []], executors: ["1", "2", "3", "4"] },
 *   { replicas: 2, maxOverlap: 0 },
 * );
 * assert.equal(plan.maxOverlap, 0);
 * ```
 */
export interface ShufflePlan extends OwnerSetPlan {
  /** The requested bound m. */
  readonly overlapBound: number;
  /** Achieved maximum number of executors shared by any two shards (exact). */
  readonly maxOverlap: number;
  /** Shards sharing more than `overlapBound` executors with some other shard. */
  readonly shardsOverBound: number;
}
