/**
 * Limits on what clients may send. The fixed limits protect the store's record
 * layout and are not configurable; the rest form the `limits` section of the
 * configuration (see `docs/limits.md`).
 *
 * @module
 */

/** Namespace names: what the configuration accepts, and so what a request may name. */
export const NAMESPACE_NAME_PATTERN: RegExp = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Longest executor id, in bytes (UTF-8). */
export const MAX_EXECUTOR_ID_LENGTH = 256;
/** Most metadata entries per executor (and pairs per drain selector). */
export const MAX_METADATA_KEYS = 32;
/** Longest metadata key, in bytes (UTF-8), as upstream counts it. */
export const MAX_METADATA_KEY_LENGTH = 128;
/** Largest metadata value, in bytes (UTF-8). */
export const MAX_METADATA_VALUE_BYTES = 512 * 1024;
/**
 * Largest size of an executor's shard reports as stored (JSON, UTF-8). With
 * `maxMetadataBytes` it keeps an executor's record under etcd's 1.5 MiB
 * request limit.
 */
export const MAX_REPORTS_BYTES = 768 * 1024;
/** Longest free-text `reason` of an executor drain, in bytes (UTF-8). */
export const MAX_REASON_LENGTH = 1024;

/** The configurable limits (the `limits` section), every default applied. */
export interface RequestLimits {
  /** Longest shard key, in bytes (UTF-8) (`maxShardKeyLength`, default 1024). */
  readonly maxShardKeyLength: number;
  /** Most shard keys in one DrainShards or UndrainShards call (`maxShardKeysPerRequest`, default 10000). */
  readonly maxShardKeysPerRequest: number;
  /** Most shard reports in one heartbeat (`maxShardReportsPerHeartbeat`, default 10000). */
  readonly maxShardReportsPerHeartbeat: number;
  /** Largest metadata of one executor as stored, JSON in UTF-8 bytes (`maxMetadataBytes`, default 600 KiB). */
  readonly maxMetadataBytes: number;
  /** Largest request the gRPC server accepts, in bytes (`maxReceiveMessageBytes`, default 4 MiB). */
  readonly maxReceiveMessageBytes: number;
  /** Default cap on an ephemeral namespace's shards, owned plus requested (`maxEphemeralShards`, default 100000). */
  readonly maxEphemeralShards: number;
}

/**
 * The defaults of the `limits` section.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_REQUEST_LIMITS } from "./request_limits.ts";
 * assert.equal(DEFAULT_REQUEST_LIMITS.maxShardKeyLength, 1024);
 * ```
 */
export const DEFAULT_REQUEST_LIMITS: RequestLimits = Object.freeze({
  maxShardKeyLength: 1024,
  maxShardKeysPerRequest: 10_000,
  maxShardReportsPerHeartbeat: 10_000,
  maxMetadataBytes: 600 * 1024,
  maxReceiveMessageBytes: 4 * 1024 * 1024,
  maxEphemeralShards: 100_000,
});
