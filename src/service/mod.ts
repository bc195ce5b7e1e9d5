/**
 * The service: one Shard Manager instance composed from its parts.
 *
 * @module
 */
export * from "./shard_manager.ts";
export * from "./namespace_operations.ts";
export type { HeartbeatAnswer, Heartbeats, OwnedShard, RawHeartbeat } from "../heartbeat/mod.ts";
