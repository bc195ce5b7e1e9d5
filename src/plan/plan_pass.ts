/**
 * One rebalance pass as a pure function: from what the pass reads to the
 * change to commit. The namespace's policy decides which planner runs; this
 * is the one place that chooses.
 *
 * @module
 */
import { planBalancedPass } from "./balanced_pass.ts";
import { planCellsPass } from "./cells_pass.ts";
import type { Plan } from "./plan.ts";
import type { PlanInput } from "./plan_input.ts";
import type { PlanPolicy } from "./plan_policy.ts";
import { planReplicatedPass } from "./replicated_pass.ts";
import { planRangesPass } from "./ranges_pass.ts";

/**
 * Plans a pass over `input` with `policy`. Pure and deterministic: no I/O, no
 * clock (the instant is `input.now`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBalancerFor } from "../loadbalancer/mod.ts";
 * import { NamespaceState } from "../state/namespace_state.ts";
 * import { planInput } from "./plan_input.ts";
 * import { planPass } from "./plan_pass.ts";
 *
 * const state = new NamespaceState("ns", { heartbeatTtlMs: 2_000 });
 * state.apply({
 *   revision: 2,
 *   events: [{ type: "heartbeat", executorId: "e1", record: { status: "ACTIVE", timestampMs: 1 } }],
 * }, 0);
 * const plan = planPass(planInput(state, 10), {
 *   kind: "balanced",
 *   universe: { kind: "fixed", shardNum: 2 },
 *   balancer: loadBalancerFor("greedy"),
 *   maxMoves: 10,
 *   executorRetentionMs: 60_000,
 * });
 * assert.deepEqual(plan.delta.assign, { e1: ["0", "1"] });
 * ```
 */
export function planPass(input: PlanInput, policy: PlanPolicy): Plan {
  switch (policy.kind) {
    case "balanced":
      return planBalancedPass(input, policy);
    case "replicated":
      return planReplicatedPass(input, policy);
    case "cells":
      return planCellsPass(input, policy);
    case "ranges":
      return planRangesPass(input, policy);
  }
}
