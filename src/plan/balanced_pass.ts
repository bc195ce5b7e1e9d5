/**
 * A pass of a single-owner namespace: stale, draining and operator-drained
 * executors lose their shards, drained shards lose their owner, finished
 * ephemeral shards are removed, and the load balancer places the rest
 * (through handovers in an exclusive namespace). Pure.
 *
 * @module
 */
import type { AssignmentDelta } from "../core/types.ts";
import {
  coldStartUntil,
  cooldowns,
  earliest,
  moveReason,
  noMoves,
  settlingUntil,
} from "./churn_rules.ts";
import { clampToCapacity } from "./capacity_clamp.ts";
import { executorLimits } from "./executor_capacity.ts";
import { Handovers } from "./handovers.ts";
import { hasHandovers, WarmHandovers } from "./warm_handovers.ts";
import { cleanUp } from "./pass_cleanup.ts";
import type { Plan } from "./plan.ts";
import type { PlanInput } from "./plan_input.ts";
import type { BalancedPolicy } from "./plan_policy.ts";
import { currentOwners } from "./current_owners.ts";
import { eligibleExecutors, shardsToPlace } from "./shard_universe.ts";
import { avoidFailingOwners, failingStarts } from "./start_failover.ts";

/** Plans a pass of a namespace with `policy.kind` `balanced`. */
export function planBalancedPass(input: PlanInput, policy: BalancedPolicy): Plan {
  const eligible = eligibleExecutors(input);
  const index = new Map(eligible.map((id, i) => [id, i]));
  const { shards, numbers, done } = shardsToPlace(input, policy.universe);
  const current = currentOwners(input, shards, numbers, index);
  const handovers = policy.exclusive ? new Handovers(input, policy.exclusive) : undefined;
  const guard = handovers?.guard;
  const warm = policy.warm ? new WarmHandovers(input, policy.warm, index) : undefined;
  const preparing = input.preparing;
  const owners = new Int32Array(shards.length);
  const loads = new Float64Array(shards.length);
  for (let i = 0; i < shards.length; i++) {
    const shard = shards[i]!;
    owners[i] = current.eligibleAt(i);
    loads[i] = current.loadAt(i);
    // A shard being prepared counts as on its incoming owner: balancing never chases it.
    if (preparing.size > 0) {
      const incoming = preparing.get(shard);
      const at = incoming && index.get(incoming.executor);
      if (at !== undefined) owners[i] = at;
    }
    // A confirmed release is placed afresh (perhaps on its old owner again).
    const owner = guard && current.at(i);
    if (owner && guard.confirmedStopped(shard, owner) && !preparing.has(shard)) owners[i] = -1;
  }
  // Churn rules: no balancing while executors are still joining, none of a
  // shard within its cooldown, none for a gap below minImprovement.
  const churn = policy.churn;
  const settling = settlingUntil(input, eligible, churn);
  // Cooldowns stop chasing, never a newcomer's share: none while an executor is short.
  const cooling = settling === undefined && !someoneShort(owners, eligible.length)
    ? cooldowns(input, shards, churn)
    : undefined;
  // A first deploy (the namespace never had an owner) waits for the fleet to arrive.
  const holding = coldStartUntil(input, eligible, churn, settling);
  const planned = holding !== undefined ? owners.slice() : policy.balancer.plan(
    {
      shards,
      owners,
      loads,
      executors: eligible,
      ...(cooling?.pinned ? { pinned: cooling.pinned } : {}),
    },
    {
      // Handovers in flight use up the move budget; the mass-loss brake allows no balancing.
      maxMoves: settling === undefined && !input.brake
        ? Math.max(0, policy.maxMoves - (warm?.inFlight ?? 0))
        : 0,
      // Hysteresis decides whether balancing starts, not where it stops.
      ...(churn && !input.balancingUnfinished ? { minImprovement: churn.minImprovement } : {}),
    },
  );
  // A shard whose start keeps failing on its owner, or whose owner restarted with it, is
  // tried elsewhere (start_failover.ts).
  const failing = failingStarts(input);
  for (const [shard, executorId] of input.restartedOwners ?? []) {
    if (input.owners.get(shard) === executorId) failing.set(shard, executorId);
  }
  avoidFailingOwners(planned, shards, failing, eligible, {
    current: owners,
    failedWith: input.failedWith,
  });
  const limits = executorLimits(input, eligible, {
    ...(policy.capacity ? { capacity: policy.capacity } : {}),
    ...(policy.maxShardsPerExecutor === undefined
      ? {}
      : { reportCap: policy.maxShardsPerExecutor }),
    shards: shards.length,
  });
  const unplaced = limits
    ? clampToCapacity(planned, owners, eligible.length, limits, limits.load && knownLoads(loads))
    : 0;
  const reasons = noMoves();

  const assign: Record<string, string[]> = {};
  const unassign: string[] = [];
  const release: string[] = [];
  const prepare: Record<string, string[]> = {};
  const unprepare: string[] = [];
  const tokens: Record<string, number> = {};
  let moves = 0;
  for (let i = 0; i < shards.length; i++) {
    const target = planned[i] ?? -1;
    // Unchanged and nothing to hand over: the common case, decided without strings.
    if (!handovers && target >= 0 && target === owners[i]) continue;
    const shard = shards[i]!;
    // Warm handovers in flight are settled below, whatever the balancer wants.
    if (preparing.has(shard)) continue;
    const owner = current.at(i);
    const next = target >= 0 ? eligible[target] : undefined;
    if (warm && next !== undefined && owner !== undefined && next !== owner) {
      const start = input.releasing.has(shard) ? "cold" : warm.start(owner, next);
      if (start === "full") continue;
      if (start === "prepare") {
        (prepare[next] ??= []).push(shard);
        continue;
      }
    }
    if (handovers) {
      const step = handovers.step(shard, owner, next);
      if (step === "release") {
        release.push(shard), moves++;
        reasons[moveReason(input, index, owner)]++;
      }
      if (step !== "move") continue;
    } else if (next === owner) continue;
    if (next === undefined) unassign.push(shard);
    else {
      (assign[next] ??= []).push(shard);
      // A released shard was counted when its release started the move.
      if (!input.releasing.has(shard)) reasons[moveReason(input, index, owner)]++;
    }
    if ((owners[i] ?? -1) >= 0 && next !== undefined) moves++;
  }
  for (const [shard, entry] of preparing) {
    const owner = input.owners.get(shard);
    const step = warm ? warm.step(shard, entry, owner) : "cancel";
    if (step === "wait") continue;
    if (step === "cancel" || step === "timed-out") {
      unprepare.push(shard);
      warm?.count(shard, step);
      continue;
    }
    // The switch: B takes the shard with the token its prepare announced.
    const incoming = entry.executor;
    if (handovers) {
      const handover = handovers.step(shard, owner, incoming);
      if (handover === "release") {
        release.push(shard), moves++;
        reasons[moveReason(input, index, owner)]++;
      }
      if (handover !== "move") continue;
    }
    (assign[incoming] ??= []).push(shard);
    tokens[shard] = entry.revision;
    warm?.count(shard, step);
    // A released shard was counted when its release started the switch.
    if (!input.releasing.has(shard)) {
      reasons[moveReason(input, index, owner)]++;
      if (input.executors.get(owner!)?.alive) moves++;
    }
  }
  for (const shard of input.drained) {
    const owner = input.owners.get(shard);
    if (owner === undefined) continue;
    const step = handovers ? handovers.step(shard, owner, undefined) : "move";
    if (step === "release") release.push(shard);
    if (step === "move") unassign.push(shard);
  }
  const remove = [...done];
  const delta: AssignmentDelta = {
    assign,
    unassign,
    remove,
    ...(release.length > 0 ? { release } : {}),
    ...(Object.keys(prepare).length > 0 ? { prepare } : {}),
    ...(unprepare.length > 0 ? { unprepare } : {}),
    ...(Object.keys(tokens).length > 0 ? { tokens } : {}),
  };
  const wakeAtMs = earliest(
    earliest(handovers?.wakeAtMs, warm?.wakeAtMs),
    holding ?? settling ?? cooling?.untilMs,
  );
  return {
    moves,
    reasons,
    // Cut by the budget (at least half of it used: a shard moved twice in a pass counts once).
    ...(policy.maxMoves > 0 && reasons.balance >= policy.maxMoves / 2
      ? { balancingUnfinished: true }
      : {}),
    ...cleanUp(input, policy.executorRetentionMs, delta, done, { holding: holding !== undefined }),
    reliedOn: handovers?.reliedOn ?? [],
    ...(warm && hasHandovers(warm.counts)
      ? { handovers: warm.counts, prepareMs: warm.prepareMs }
      : {}),
    ...(wakeAtMs === undefined ? {} : { wakeAtMs }),
    ...(holding === undefined ? {} : { coldStartUntilMs: holding }),
    ...(unplaced > 0 ? { unplaced } : {}),
  };
}

/** Whether an eligible executor holds fewer than half the mean number of shards. */
function someoneShort(owners: Int32Array, executors: number): boolean {
  if (executors < 2) return false;
  const counts = new Int32Array(executors);
  let owned = 0;
  for (const owner of owners) if (owner >= 0) counts[owner]!++, owned++;
  const half = owners.length / executors / 2;
  return owned > 0 && counts.some((count) => count < half);
}

/** `loads` with unknown (NaN) loads taken as the mean of the known ones (0 if none is known). */
function knownLoads(loads: Float64Array): Float64Array {
  let known = 0;
  let sum = 0;
  for (const load of loads) if (load === load) known++, sum += load;
  const mean = known === 0 ? 0 : sum / known;
  return loads.map((load) => load === load ? load : mean);
}
