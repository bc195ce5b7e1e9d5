/**
 * The heartbeat: {@linkcode Heartbeats} is its one entry (record, wait,
 * answer; see heartbeats.ts), built by the service's composition root and
 * called by the transport. The rest is what the service's other parts share
 * with it: validation of shard keys and executor ids, and what executors of
 * exclusive namespaces were heard running.
 *
 * @module
 */
export {
  type HeartbeatNamespace,
  type HeartbeatNamespaces,
  HeartbeatResponder,
  type HeartbeatResponderOptions,
  type Heartbeats,
} from "./heartbeats.ts";
export { type HeartbeatAnswer, heartbeatAnswer, type OwnedShard } from "./heartbeat_answers.ts";
export {
  type Heartbeat,
  type RawHeartbeat,
  type RawReport,
  validateExecutorId,
  validateShardKey,
} from "./validate_heartbeat.ts";
export { HeardReports } from "./heard_reports.ts";
