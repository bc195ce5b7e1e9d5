/**
 * Zod schema of the `limits` section: the request limits an operator may
 * need to change. Fixed limits (executor ids, metadata entries, namespace
 * syntax) are in `src/limits/request_limits.ts`; `docs/limits.md` lists all.
 *
 * @module
 */
import { integer, section } from "./_fields.ts";
import type { SectionSchema } from "./section_schema.ts";
import type { LimitsConfig } from "./types.ts";
import { DEFAULT_REQUEST_LIMITS as D } from "../limits/request_limits.ts";

/** Smallest `maxReceiveMessageBytes`: room for any request within the other limits' minimums. */
const MIN_MESSAGE_BYTES = 64 * 1024;
/**
 * Largest `maxMetadataBytes`: with the fixed 768 KiB for shard reports, an
 * executor's record stays under etcd's 1.5 MiB request limit.
 */
const MAX_METADATA_BYTES = 700 * 1024;

/**
 * `limits`; may be omitted.
 *
 * @example Usage
 * ```ts
 * import { limitsSchema } from "./limits_schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(limitsSchema.parse(undefined).maxEphemeralShards, 100_000);
 * assert.equal(limitsSchema.parse({ maxShardKeyLength: 64 }).maxShardKeyLength, 64);
 * ```
 */
export const limitsSchema: SectionSchema<LimitsConfig> = section({
  maxShardKeyLength: integer(1, 64 * 1024).default(D.maxShardKeyLength),
  maxShardKeysPerRequest: integer(1, 1_000_000).default(D.maxShardKeysPerRequest),
  maxShardReportsPerHeartbeat: integer(1, 1_000_000).default(D.maxShardReportsPerHeartbeat),
  maxMetadataBytes: integer(1024, MAX_METADATA_BYTES).default(D.maxMetadataBytes),
  maxReceiveMessageBytes: integer(MIN_MESSAGE_BYTES, 2 ** 31 - 1).default(
    D.maxReceiveMessageBytes,
  ),
  maxEphemeralShards: integer(1, 100_000_000).default(D.maxEphemeralShards),
}).prefault({});
