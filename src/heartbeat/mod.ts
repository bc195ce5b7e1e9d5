/**
 * Heartbeat ingestion: validation, coalescing and batched writes.
 *
 * @module
 */
export * from "./heartbeat_ingest.ts";
export * from "./validate_heartbeat.ts";
export * from "./decide_write.ts";
export * from "./limits.ts";
