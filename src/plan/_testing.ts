/**
 * Test helpers for planner unit tests: a pass over a state's view, with the
 * policy written as the knobs a test varies.
 *
 * @module
 */
import type { LoadBalancer } from "../loadbalancer/mod.ts";
import type { NamespaceView } from "../state/namespace_view.ts";
import type { Plan } from "./plan.ts";
import { type PlanInput, planInput } from "./plan_input.ts";
import { planPass } from "./plan_pass.ts";
import type { PlanPolicy, ShardUniverse } from "./plan_policy.ts";

/** The keys of a test namespace. */
export type TestShape = { readonly type: "fixed"; readonly shardNum?: number } | {
  readonly type: "ephemeral";
};

/** A test's pass knobs; the planner is chosen from them as a namespace policy would. */
export interface TestPassOptions {
  /** The load balancer (single owners). */
  readonly balancer: LoadBalancer;
  /** Balancing moves allowed. */
  readonly maxMoves: number;
  /** Stale executors are forgotten after this long. */
  readonly executorRetentionMs: number;
  /** Warm handover with these knobs. */
  readonly warm?: { readonly prepareTimeoutMs: number; readonly maxPreparesPerExecutor: number };
  /** Exclusive ownership with this lease. */
  readonly exclusive?: { readonly leaseMs: number; readonly maxReliedOn?: number };
  /** A cells namespace: pins and pending operator moves. */
  readonly cells?: {
    readonly pins: ReadonlyMap<string, string>;
    readonly moves: ReadonlyMap<string, string>;
  };
  /** A replicated namespace. */
  readonly replication?: {
    readonly replicas: number;
    readonly placement: "balanced" | "shuffle";
    readonly maxOverlap?: number;
    readonly zoneKey: string;
    readonly seed: number;
  };
}

/** What a test changes in the pass's input: executors heard from at the pass's instant. */
export interface TestInputChanges {
  /** Executors heard from (alive, seen at the given monotonic time) with their records unchanged. */
  readonly heard?: Readonly<Record<string, number>>;
}

/** The policy `options` stand for. */
export function testPolicy(shape: TestShape, options: TestPassOptions): PlanPolicy {
  const universe: ShardUniverse = shape.type === "fixed"
    ? { kind: "fixed", shardNum: shape.shardNum ?? 0 }
    : { kind: "ephemeral" };
  const { executorRetentionMs, maxMoves } = options;
  if (options.cells) {
    return { kind: "cells", pins: options.cells.pins, executorRetentionMs };
  }
  if (options.replication) {
    return { kind: "replicated", universe, ...options.replication, maxMoves, executorRetentionMs };
  }
  return {
    kind: "balanced",
    universe,
    balancer: options.balancer,
    maxMoves,
    executorRetentionMs,
    ...(options.warm ? { warm: options.warm } : {}),
    ...(options.exclusive
      ? {
        exclusive: {
          leaseMs: options.exclusive.leaseMs,
          maxReliedOn: options.exclusive.maxReliedOn ?? 100,
        },
      }
      : {}),
  };
}

/** The input of a pass over `view` at `now`, with a test's changes. */
export function testInput(
  view: NamespaceView,
  now: number,
  options: Pick<TestPassOptions, "cells"> = {},
  changes: TestInputChanges = {},
): PlanInput {
  const input = planInput(view, now, options.cells ? { cellMoves: options.cells.moves } : {});
  const heard = Object.entries(changes.heard ?? {});
  if (heard.length === 0) return input;
  const executors = new Map(input.executors);
  for (const [id, seenAtMs] of heard) {
    const e = executors.get(id);
    if (e) executors.set(id, { ...e, seenAtMs, alive: true });
  }
  return { ...input, executors };
}

/** A pass over `view` at `now` with the policy `options` stand for. */
export function testPlan(
  view: NamespaceView,
  shape: TestShape,
  now: number,
  options: TestPassOptions,
  changes: TestInputChanges = {},
): Plan {
  return planPass(testInput(view, now, options, changes), testPolicy(shape, options));
}
