/**
 * What routing needs of a namespace: its policy, its followed state and its
 * shard-request coalescer. The namespace's runtime provides it.
 *
 * @module
 */
import { ShardNotFoundError } from "../core/errors.ts";
import type { NamespacePolicy } from "../policy/namespace_policy.ts";
import type { NamespaceCache } from "../state/namespace_cache.ts";
import type { ShardRequester } from "./shard_requester.ts";

/** A namespace as routing sees it. */
export interface RoutedNamespace {
  /** The namespace's policy. */
  readonly policy: NamespacePolicy;
  /** Followed state. */
  readonly cache: NamespaceCache;
  /** Coalesces requests for new ephemeral shards. */
  readonly requester: ShardRequester;
}

/**
 * True when `key` is a shard of a fixed namespace of `shardNum` shards ("0".."n-1", canonical).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isFixedShard } from "./routed_namespace.ts";
 *
 * assert.equal(isFixedShard("7", 8), true);
 * assert.equal(isFixedShard("07", 8), false);
 * assert.equal(isFixedShard("8", 8), false);
 * ```
 */
export function isFixedShard(key: string, shardNum: number): boolean {
  if (!/^(0|[1-9][0-9]*)$/.test(key)) return false;
  return Number(key) < shardNum;
}

/** Throws `ShardNotFoundError` unless `key` can exist in the namespace. */
export function assertShardExists(namespace: RoutedNamespace, key: string): void {
  const { name, keys } = namespace.policy;
  if (keys.kind === "fixed" && !isFixedShard(key, keys.shardNum)) {
    throw new ShardNotFoundError(name, key);
  }
}
