/**
 * Test helpers for the churn rules: a pass input written as executors and
 * owners, and a small fleet simulation that applies each plan and counts
 * every time a shard lands on an executor that did not have it.
 *
 * @module
 */
import { reportsFrom } from "../core/shared_reports.ts";
import type { ExecutorStatus, ShardReport, ShardReports } from "../core/types.ts";
import type { LoadBalancer } from "../loadbalancer/mod.ts";
import type { ChurnRules } from "./churn_rules.ts";
import type { Plan } from "./plan.ts";
import type { PlanExecutor, PlanInput } from "./plan_input.ts";
import { planPass } from "./plan_pass.ts";
import type { BalancedPolicy, ReplicatedPolicy } from "./plan_policy.ts";

/** An executor of a test input. */
export interface TestMember {
  /** Default ACTIVE. */
  readonly status?: ExecutorStatus;
  /** Default true. */
  readonly alive?: boolean;
  /** When it joined the eligible set; default long ago (0). */
  readonly since?: number;
  /** Load reports. */
  readonly reports?: ShardReports | Readonly<Record<string, ShardReport>>;
}

/** The churn rules of the tests: 3 s window, 10% hysteresis, 60 s cooldown. */
export const RULES: ChurnRules = {
  settleWindowMs: 3_000,
  minImprovement: 0.1,
  shardCooldownMs: 60_000,
};

/** A pass input at `now`. */
export function churnInput(
  now: number,
  members: Readonly<Record<string, TestMember>>,
  owners: ReadonlyMap<string, string>,
  movedAt: ReadonlyMap<string, number> = new Map(),
): PlanInput {
  const executors = new Map<string, PlanExecutor>();
  for (const [id, m] of Object.entries(members)) {
    executors.set(id, {
      executorId: id,
      status: m.status ?? "ACTIVE",
      alive: m.alive ?? true,
      operatorDrained: false,
      seenAtMs: now,
      heartbeatRevision: 1,
      activeSinceMs: m.since ?? 0,
      appliedRevision: 0,
      metadata: {},
      reports: reportsFrom(m.reports ?? {}),
    });
  }
  const byExecutor = new Map<string, Set<string>>();
  for (const [shard, owner] of owners) {
    let set = byExecutor.get(owner);
    if (!set) byExecutor.set(owner, set = new Set());
    set.add(shard);
  }
  return {
    now,
    executors,
    owners,
    ownerSets: new Map(),
    byExecutor,
    releasing: new Map(),
    preparing: new Map(),
    preparingSince: new Map(),
    preparingBy: new Map(),
    drained: new Set(),
    requested: new Map(),
    hidden: new Map(),
    cellMoves: new Map(),
    movedAt,
  };
}

/** A balanced policy of `shardNum` fixed shards (`"none"`: without churn rules). */
export function churnPolicy(
  balancer: LoadBalancer,
  shardNum: number,
  churn: ChurnRules | "none" = RULES,
  maxMoves = 1_000,
): BalancedPolicy {
  return {
    kind: "balanced",
    universe: { kind: "fixed", shardNum },
    balancer,
    maxMoves,
    executorRetentionMs: 600_000,
    ...(churn === "none" ? {} : { churn }),
  };
}

/** A replicated policy of 12 fixed shards, 2 owners each, with `churn`. */
export function replicatedChurnPolicy(churn: ChurnRules = RULES): ReplicatedPolicy {
  return {
    kind: "replicated",
    universe: { kind: "fixed", shardNum: 12 },
    replicas: 2,
    placement: "balanced",
    zoneKey: "zone",
    seed: 1,
    maxMoves: 100,
    executorRetentionMs: 600_000,
    churn,
  };
}

/** A fleet whose owners follow each plan; counts shards landing on executors. */
export class TestFleet {
  /** Executors by id. */
  readonly members = new Map<string, TestMember>();
  /** Shard → owner. */
  readonly owners = new Map<string, string>();
  /** Shard → time of its last move between executors. */
  readonly movedAt = new Map<string, number>();
  /** Every time a shard got an owner it did not have. */
  placements = 0;
  readonly #policy: BalancedPolicy;

  /** A fleet planned with `policy`. */
  constructor(policy: BalancedPolicy) {
    this.#policy = policy;
  }

  /** One pass at `now`, applied. */
  pass(now: number): Plan {
    const plan = planPass(
      churnInput(now, Object.fromEntries(this.members), this.owners, this.movedAt),
      this.#policy,
    );
    for (const shard of plan.delta.unassign) this.owners.delete(shard);
    for (const [executor, shards] of Object.entries(plan.delta.assign)) {
      for (const shard of shards) {
        const before = this.owners.get(shard);
        if (before === executor) continue;
        if (before !== undefined) this.movedAt.set(shard, now);
        this.owners.set(shard, executor);
        this.placements++;
      }
    }
    // Executors gone from the fleet leave for good.
    for (const [id, m] of this.members) {
      if (m.status === "DRAINED" && ![...this.owners.values()].includes(id)) {
        this.members.delete(id);
      }
    }
    return plan;
  }

  /** Passes every `stepMs` from `from` until `to`. */
  run(from: number, to: number, stepMs = 500): void {
    for (let t = from; t <= to; t += stepMs) this.pass(t);
  }

  /** Shards held by `id`. */
  held(id: string): number {
    let n = 0;
    for (const owner of this.owners.values()) if (owner === id) n++;
    return n;
  }
}
