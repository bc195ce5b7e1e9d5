/**
 * Limits on what executors may send in a heartbeat. They live with the other
 * request limits in `src/limits/`; re-exported here for the heartbeat package.
 *
 * @module
 */
import { DEFAULT_REQUEST_LIMITS } from "../limits/request_limits.ts";

export {
  MAX_EXECUTOR_ID_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_BYTES,
  MAX_REPORTS_BYTES,
} from "../limits/request_limits.ts";

/** Longest shard key by default, in bytes (UTF-8) (`limits.maxShardKeyLength`). */
export const MAX_SHARD_KEY_LENGTH: number = DEFAULT_REQUEST_LIMITS.maxShardKeyLength;
