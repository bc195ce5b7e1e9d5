/**
 * The service: one Shard Manager instance composed from its parts.
 *
 * @module
 */
export * from "./shard_manager.ts";
export * from "./namespace_operations.ts";
export * from "./heartbeat_answers.ts";
