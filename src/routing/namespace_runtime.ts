/**
 * One namespace inside a service instance: its configuration, its followed
 * state and its shard-request coalescer.
 *
 * @module
 */
import type { NamespaceConfig } from "../config/mod.ts";
import { ShardNotFoundError } from "../core/errors.ts";
import type { NamespaceCache } from "../state/namespace_cache.ts";
import type { ShardRequester } from "./shard_requester.ts";

/** A namespace's parts within one instance. */
export interface NamespaceRuntime {
  /** Static configuration. */
  readonly config: NamespaceConfig;
  /** Followed state. */
  readonly cache: NamespaceCache;
  /** Coalesces requests for new ephemeral shards. */
  readonly requester: ShardRequester;
  /**
   * Cap on the shards of an ephemeral namespace (owned plus requested plus
   * asked through `requester`); unset means no cap.
   */
  readonly maxShards?: number;
}

/** True when `key` is a shard of a fixed namespace of `shardNum` shards ("0".."n-1", canonical). */
export function isFixedShard(key: string, shardNum: number): boolean {
  if (!/^(0|[1-9][0-9]*)$/.test(key)) return false;
  return Number(key) < shardNum;
}

/** Throws `ShardNotFoundError` unless `key` can exist in the namespace. */
export function assertShardExists(runtime: NamespaceRuntime, key: string): void {
  const { config } = runtime;
  if (config.type === "fixed" && !isFixedShard(key, config.shardNum ?? 0)) {
    throw new ShardNotFoundError(config.name, key);
  }
}
