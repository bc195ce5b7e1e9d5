/**
 * A namespace's settings as the dashboard lists them: the YAML names an
 * operator would look up, with the values in force (defaults applied), read
 * from the namespace's policy. During an incident they answer "how fast may
 * this namespace move shards, how long is an executor given, how much may
 * drains take out".
 *
 * @module
 */
import type { NamespacePolicy } from "../../../policy/namespace_policy.ts";

/** One setting: its YAML name and its value in force, in words. */
export interface NamespaceSetting {
  /** The YAML name (`ownership`, `loadBalancer`, `maxMovesPerPass`, ...). */
  readonly key: string;
  /** The value in force, e.g. `exclusive (lease 2s)`. */
  readonly value: string;
}

/**
 * A duration as the configuration writes it: `500ms`, `2s`, `1m`; 0 is `0 (off)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatDuration } from "./namespace_settings.ts";
 *
 * assert.equal(formatDuration(2_000), "2s");
 * assert.equal(formatDuration(60_000), "1m");
 * assert.equal(formatDuration(1_500), "1500ms");
 * ```
 */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0 (off)";
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1_000 === 0) return `${ms / 1_000}s`;
  return `${ms}ms`;
}

/**
 * The settings of the namespace `policy` was read for, in the order an
 * on-call engineer asks about them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { namespacePolicy } from "../../../policy/namespace_policy.ts";
 * import { namespaceSettings } from "./namespace_settings.ts";
 *
 * const policy = namespacePolicy(
 *   { kind: "fixed", name: "jobs", shardNum: 16, loadBalancer: "greedy", ownership: { mode: "exclusive" } },
 *   {
 *     process: { periodMs: 1_000, heartbeatTtlMs: 2_000, rebalanceCooldownMs: 100, maxMovesPerPass: 1_000 },
 *     limits: { maxEphemeralShards: 100_000 },
 *     maxReliedOn: 100,
 *   },
 * );
 * const settings = Object.fromEntries(namespaceSettings(policy).map((s) => [s.key, s.value]));
 * assert.equal(settings.ownership, "exclusive (lease 2s)");
 * assert.equal(settings.loadBalancer, "greedy");
 * ```
 */
export function namespaceSettings(policy: NamespacePolicy): NamespaceSetting[] {
  const out: NamespaceSetting[] = [];
  const add = (key: string, value: string) => out.push({ key, value });
  const { keys, ownership, placement: plan, budgets } = policy;
  if (keys.kind === "fixed") add("type", `fixed, ${keys.shardNum} shards`);
  else if (keys.kind === "range") add("type", "range: keys hashed onto slices");
  else {
    add(
      "type",
      `${
        keys.kind === "cells" ? "ephemeral, cells" : "ephemeral"
      }, at most ${keys.maxShards} shards`,
    );
  }
  add(
    "ownership",
    ownership.mode === "exclusive"
      ? `exclusive (lease ${formatDuration(ownership.leaseMs)})`
      : "available",
  );
  if (plan.kind === "balanced") add("loadBalancer", plan.balancer.name);
  else if (plan.kind === "replicated") {
    add(
      "loadBalancer",
      `none: ${plan.replicas} replicas, ${plan.placement} placement` +
        (plan.maxOverlap === undefined ? "" : `, maxOverlap ${plan.maxOverlap}`),
    );
  } else if (plan.kind === "ranges") {
    const r = plan.settings;
    add("loadBalancer", "none: the range planner splits, merges and moves slices");
    add(
      "slicesPerExecutor",
      `${r.slicesPerExecutor.target} (${r.slicesPerExecutor.min} to ${r.slicesPerExecutor.max})`,
    );
    add("splitThreshold", `${r.splitThreshold} of the mean executor load`);
    add("hotKeyThreshold", `${r.hotKeyThreshold} of the mean executor load`);
    add("churnBudget", `${r.churnBudget} slice moves per pass`);
  } else {
    add("loadBalancer", "none: a tenant stays on its cell");
    if (plan.pins.size > 0) add("pins", `${plan.pins.size}`);
  }
  if (plan.kind === "balanced" || plan.kind === "replicated") {
    add("maxMovesPerPass", plan.maxMoves === 0 ? "0 (sticky)" : String(plan.maxMoves));
    if (plan.churn) {
      add("settleWindow", formatDuration(plan.churn.settleWindowMs));
      if (plan.kind === "balanced") {
        add("shardCooldown", formatDuration(plan.churn.shardCooldownMs));
        add("minImprovement", String(plan.churn.minImprovement));
      }
      add("coldStartWait", formatDuration(plan.churn.coldStartWaitMs ?? 0));
    }
  }
  add("maxDrainedShare", `${Math.round(budgets.maxDrainedShare * 100)}% of live executors`);
  const quarantine = budgets.quarantine;
  if (quarantine) {
    add(
      "quarantineThreshold",
      quarantine.threshold === 0 ? "off" : `${quarantine.threshold} executors`,
    );
    if (quarantine.threshold > 0) add("quarantineWindow", formatDuration(quarantine.windowMs));
  }
  add("heartbeatTTL", formatDuration(budgets.heartbeatTtlMs));
  add("period", formatDuration(budgets.periodMs));
  add("rebalanceCooldown", formatDuration(budgets.cooldownMs));
  return out;
}
