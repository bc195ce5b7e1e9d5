/**
 * Pure planning of rebalance passes: a plain {@linkcode PlanInput} and a
 * namespace's {@linkcode PlanPolicy} in, a {@linkcode Plan} out. No I/O, no
 * clock, no store types.
 *
 * @module
 */
export * from "./plan.ts";
export * from "./plan_input.ts";
export * from "./owner_tables.ts";
export * from "./plan_pass.ts";
export * from "./plan_policy.ts";
export type { PlacementReport } from "./placement_report.ts";
export type { MoveCounts, MoveReason } from "./churn_rules.ts";
export { noMoves } from "./churn_rules.ts";
export { fixedShardKeys } from "./shard_universe.ts";
export { replicationSeed } from "./replicated_pass.ts";
export { leaseMarginMs } from "./handover_guard.ts";
export type { HandoverCounts } from "./warm_handovers.ts";
export {
  DEFAULT_QUARANTINE,
  PoisonDetector,
  type PoisonExecutor,
  type QuarantineSettings,
} from "./poison_detector.ts";
