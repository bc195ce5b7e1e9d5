/**
 * The placement step of a pass for a replicated or shuffle-sharded namespace
 * (`replicas` above 1): owner sets from `planReplicas` or `planShuffle`,
 * turned into an assignment change that lists each changed shard under its
 * primary with its full set in `sets`. Pure, like the rest of the pass.
 *
 * @module
 */
import type { NamespaceState } from "../state/namespace_state.ts";
import {
  type OwnerSetPlan,
  type PlacementExecutor,
  planReplicas,
  planShuffle,
  stableHash,
} from "../placement/mod.ts";

/** How a replicated namespace places its owner sets (from the namespace config). */
export interface ReplicationOptions {
  /** Owners per shard (k ≥ 2). */
  readonly replicas: number;
  /** `balanced` (planReplicas) or `shuffle` (planShuffle). */
  readonly placement: "balanced" | "shuffle";
  /** Shuffle only: the overlap bound m. */
  readonly maxOverlap?: number;
  /** Metadata key of the fault zone. */
  readonly zoneKey: string;
  /** Seed of the shuffle search, the same for every leader (see {@linkcode replicationSeed}). */
  readonly seed: number;
}

/**
 * What a replicated pass achieved: the "reported, never hidden" figures that
 * become leader log fields and metrics.
 */
export interface PlacementReport {
  /** Owners per shard actually given: `min(replicas, eligible executors)`. */
  readonly replicas: number;
  /** Shards with fewer owners than asked for. */
  readonly shortShards: number;
  /** Shards whose owners are not spread over zones as far as the zones allow. */
  readonly zoneSpreadViolations: number;
  /** Shuffle: the requested bound m. */
  readonly overlapBound?: number;
  /** Shuffle: the largest number of executors two shards share (exact). */
  readonly maxOverlap?: number;
  /** Shuffle: shards sharing more than the bound with some other shard. */
  readonly shardsOverBound?: number;
}

/** The placement part of a pass's change. */
export interface OwnerSetStep {
  /** Shards given to each primary (every shard whose owner set changed). */
  readonly assign: Record<string, string[]>;
  /** Shards left with no owner. */
  readonly unassign: string[];
  /** Full owner sets of assigned shards with more than one owner. */
  readonly sets: Record<string, string[]>;
  /** Eligible owners replaced (balancing, spreading, repairing overlap). */
  readonly moves: number;
  /** What was achieved. */
  readonly report: PlacementReport;
}

/**
 * The seed of a namespace's shuffle search: derived from its name, so every
 * leader of it computes the same plan.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { replicationSeed } from "./replicas_pass.ts";
 * assert.equal(replicationSeed("dns"), replicationSeed("dns"));
 * ```
 */
export function replicationSeed(namespace: string): number {
  return stableHash(namespace);
}

/**
 * Plans owner sets for `shards` over the `eligible` executors (sorted ids)
 * and returns the change from the current sets in `state`.
 */
export function planOwnerSets(
  state: NamespaceState,
  shards: readonly string[],
  eligible: readonly string[],
  options: ReplicationOptions & { readonly maxMoves: number },
): OwnerSetStep {
  const executors: PlacementExecutor[] = eligible.map((id) => ({
    id,
    metadata: state.executors.get(id)?.metadata ?? {},
  }));
  const input = { shards, owners: shards.map((s) => state.ownersOf(s)), executors };
  const common = {
    replicas: options.replicas,
    zoneKey: options.zoneKey,
    maxMoves: options.maxMoves,
  };
  let plan: OwnerSetPlan;
  let report: PlacementReport;
  if (options.placement === "shuffle") {
    const shuffle = planShuffle(input, {
      ...common,
      maxOverlap: options.maxOverlap ?? options.replicas - 1,
      seed: options.seed,
    });
    plan = shuffle;
    report = {
      ...baseReport(shuffle),
      overlapBound: shuffle.overlapBound,
      maxOverlap: shuffle.maxOverlap,
      shardsOverBound: shuffle.shardsOverBound,
    };
  } else {
    plan = planReplicas(input, common);
    report = baseReport(plan);
  }
  const assign: Record<string, string[]> = {};
  const unassign: string[] = [];
  const sets: Record<string, string[]> = {};
  for (const [i, shard] of shards.entries()) {
    const next = plan.owners[i] ?? [];
    const current = input.owners[i] ?? [];
    if (next.length === current.length && next.every((id, j) => id === current[j])) continue;
    const primary = next[0];
    if (primary === undefined) {
      if (current.length > 0) unassign.push(shard);
      continue;
    }
    (assign[primary] ??= []).push(shard);
    if (next.length > 1) sets[shard] = next;
  }
  return { assign, unassign, sets, moves: plan.moves, report };
}

function baseReport(plan: OwnerSetPlan): PlacementReport {
  return {
    replicas: plan.replicas,
    shortShards: plan.shortShards,
    zoneSpreadViolations: plan.zoneSpreadViolations,
  };
}
