/**
 * A pass of a replicated or shuffle-sharded namespace (`replicas` above 1):
 * owner sets from `planReplicas` or `planShuffle`, turned into an assignment
 * change that lists each changed shard under its primary with its full set in
 * `sets`. Pure, like the rest of planning.
 *
 * @module
 */
import type { AssignmentDelta } from "../core/types.ts";
import {
  type OwnerSetPlan,
  type PlacementExecutor,
  planReplicas,
  planShuffle,
  stableHash,
} from "../placement/mod.ts";
import {
  coldStartUntil,
  type MoveCounts,
  moveReason,
  noMoves,
  settlingUntil,
} from "./churn_rules.ts";
import { cleanUp } from "./pass_cleanup.ts";
import type { PlacementReport } from "./placement_report.ts";
import type { Plan } from "./plan.ts";
import { ownersOf } from "./owner_tables.ts";
import type { PlanInput } from "./plan_input.ts";
import type { ReplicatedPolicy } from "./plan_policy.ts";
import { eligibleExecutors, shardsToPlace } from "./shard_universe.ts";

export type { PlacementReport } from "./placement_report.ts";

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
 * import { replicationSeed } from "./replicated_pass.ts";
 *
 * assert.equal(replicationSeed("dns"), replicationSeed("dns"));
 * ```
 */
export function replicationSeed(namespace: string): number {
  return stableHash(namespace);
}

/**
 * Plans owner sets for `shards` over the `eligible` executors (sorted ids)
 * and returns the change from the current sets in `input`.
 */
export function planOwnerSets(
  input: PlanInput,
  shards: readonly string[],
  eligible: readonly string[],
  policy: Pick<
    ReplicatedPolicy,
    "replicas" | "placement" | "maxOverlap" | "zoneKey" | "seed" | "maxMoves"
  >,
): OwnerSetStep {
  const executors: PlacementExecutor[] = eligible.map((id) => ({
    id,
    metadata: input.executors.get(id)?.metadata ?? {},
  }));
  const current = { shards, owners: shards.map((s) => ownersOf(input, s)), executors };
  const common = {
    replicas: policy.replicas,
    zoneKey: policy.zoneKey,
    maxMoves: policy.maxMoves,
  };
  let plan: OwnerSetPlan;
  let report: PlacementReport;
  if (policy.placement === "shuffle") {
    const shuffle = planShuffle(current, {
      ...common,
      maxOverlap: policy.maxOverlap ?? policy.replicas - 1,
      seed: policy.seed,
    });
    plan = shuffle;
    report = {
      ...baseReport(shuffle),
      overlapBound: shuffle.overlapBound,
      maxOverlap: shuffle.maxOverlap,
      shardsOverBound: shuffle.shardsOverBound,
    };
  } else {
    plan = planReplicas(current, common);
    report = baseReport(plan);
  }
  const assign: Record<string, string[]> = {};
  const unassign: string[] = [];
  const sets: Record<string, string[]> = {};
  for (const [i, shard] of shards.entries()) {
    const next = plan.owners[i] ?? [];
    const now = current.owners[i] ?? [];
    if (next.length === now.length && next.every((id, j) => id === now[j])) continue;
    const primary = next[0];
    if (primary === undefined) {
      if (now.length > 0) unassign.push(shard);
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

/** Plans a pass of a namespace with `policy.kind` `replicated`. */
export function planReplicatedPass(input: PlanInput, policy: ReplicatedPolicy): Plan {
  const eligible = eligibleExecutors(input);
  const { shards, done } = shardsToPlace(input, policy.universe);
  // While executors are still joining, owner sets are completed but not rebalanced.
  const settling = settlingUntil(input, eligible, policy.churn);
  const maxMoves = settling === undefined ? policy.maxMoves : 0;
  const holding = coldStartUntil(input, eligible, policy.churn, settling);
  const step = holding === undefined
    ? planOwnerSets(input, shards, eligible, { ...policy, maxMoves })
    : heldStep(policy.replicas, shards.length);
  for (const shard of input.drained) if (input.owners.has(shard)) step.unassign.push(shard);
  const remove = [...done];
  const wakeAtMs = holding ?? settling;
  const delta: AssignmentDelta = {
    assign: step.assign,
    unassign: step.unassign,
    remove,
    ...(Object.keys(step.sets).length > 0 ? { sets: step.sets } : {}),
    // No warm handover here: prepares left from a single-owner definition are called off.
    ...(input.preparing.size > 0 ? { unprepare: [...input.preparing.keys()] } : {}),
  };
  return {
    moves: step.moves,
    reasons: ownerSetReasons(input, eligible, step),
    ...cleanUp(input, policy.executorRetentionMs, delta, done, { holding: holding !== undefined }),
    reliedOn: [],
    placement: step.report,
    ...(wakeAtMs === undefined ? {} : { wakeAtMs }),
    ...(holding === undefined ? {} : { coldStartUntilMs: holding }),
  };
}

/** A cold start that waits: nothing placed, every shard short. */
function heldStep(replicas: number, shards: number): OwnerSetStep {
  const report = { replicas, shortShards: shards, zoneSpreadViolations: 0 };
  return { assign: {}, unassign: [], sets: {}, moves: 0, report };
}

/** Each owner a changed set gained, counted by why: the owner it replaced, or placement. */
function ownerSetReasons(
  input: PlanInput,
  eligible: readonly string[],
  step: OwnerSetStep,
): MoveCounts {
  const reasons = noMoves();
  const eligibleSet = new Set(eligible);
  for (const [primary, shards] of Object.entries(step.assign)) {
    for (const shard of shards) {
      const next = step.sets[shard] ?? [primary];
      const before = ownersOf(input, shard);
      const gone = before.filter((id) => !next.includes(id));
      const added = next.filter((id) => !before.includes(id)).length;
      for (const [i, id] of gone.entries()) {
        if (i < added) reasons[moveReason(input, eligibleSet, id)]++;
      }
      reasons.placement += Math.max(0, added - gone.length);
    }
  }
  return reasons;
}
