/**
 * Limits on what clients may send, checked before anything is stored.
 *
 * @module
 */

/** Most metadata keys per executor. */
export const MAX_METADATA_KEYS = 32;
/** Longest metadata key, in characters. */
export const MAX_METADATA_KEY_LENGTH = 128;
/** Largest metadata value, in bytes (UTF-8). */
export const MAX_METADATA_VALUE_BYTES = 512 * 1024;
/** Longest executor id, in characters. */
export const MAX_EXECUTOR_ID_LENGTH = 256;
/** Longest shard key, in characters. */
export const MAX_SHARD_KEY_LENGTH = 1024;
