/**
 * The service: one Shard Manager instance composed from its parts, and the
 * narrow use cases the transport calls (`use_cases.ts`). The transport
 * imports the service only through this file.
 *
 * @module
 */
export * from "./shard_manager.ts";
export * from "./use_cases.ts";
export * from "./namespace_operations.ts";
export type { BlastRadiusView } from "./cell_operations.ts";
export type { ExecutorDrains, ExecutorDrainView } from "./executor_drains.ts";
export type { ChangedSliceView, SliceChange } from "./slice_operations.ts";
export type { StopAnswer, StopChecks, StopTarget } from "./stop_checks.ts";
export type { HealthMonitor, HealthStatus } from "./health_monitor.ts";
export type { HistoryLog } from "./history_log.ts";
export type { Refusal } from "./operator_audit.ts";
export { validateRequestId } from "./operator_writes.ts";
export { asOperator } from "./operator_identity.ts";
export type {
  HeartbeatAnswer,
  Heartbeats,
  OwnedShard,
  RawHeartbeat,
  RawReport,
} from "../heartbeat/mod.ts";
