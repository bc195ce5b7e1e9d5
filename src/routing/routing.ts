/**
 * Routing queries, answered from the in-memory namespace state (never a
 * per-request store read). Only the first ask for a new ephemeral shard
 * touches the store, through the coalescing `ShardRequester`.
 *
 * @module
 */
import { type Clock, systemClock, timeoutSignal } from "../core/clock.ts";
import {
  EphemeralShardLimitExceededError,
  NoOwnerError,
  ShardDrainedError,
} from "../core/errors.ts";
import type { NamespaceView } from "../state/namespace_view.ts";
import { assertShardExists, type RoutedNamespace } from "./routed_namespace.ts";
import type { ShardOwnerView } from "./views.ts";

/** How long a first ask for an ephemeral shard waits for the leader to place it. */
export const CREATE_TIMEOUT_MS = 10_000;

/** The owner of a shard as routing answers it. */
export function ownerView(state: NamespaceView, owner: string, shard?: string): ShardOwnerView {
  const metadata = state.executor(owner)?.metadata ?? {};
  const set = shard === undefined ? [] : state.ownersOf(shard);
  return {
    namespace: state.namespace,
    owner,
    metadata,
    owners: set.length <= 1 ? [{ executorId: owner, metadata }] : set.map((executorId) => ({
      executorId,
      metadata: state.executor(executorId)?.metadata ?? {},
    })),
  };
}

function hasLiveExecutor(state: NamespaceView, now: number): boolean {
  for (const e of state.executors()) {
    if (e.status === "ACTIVE" && state.isAlive(e, now)) return true;
  }
  return false;
}

/**
 * Who owns `key`; an ephemeral shard is created on first ask and the call
 * waits (up to `CREATE_TIMEOUT_MS` of `clock`'s time, default
 * `systemClock`, or until `signal` aborts) for its owner.
 */
export async function getShardOwner(
  runtime: RoutedNamespace,
  key: string,
  now: number,
  signal?: AbortSignal,
  clock: Clock = systemClock,
): Promise<ShardOwnerView> {
  assertShardExists(runtime, key);
  const { cache } = runtime;
  const state = cache.state;
  if (runtime.policy.keys.kind === "range") return rangeOwner(state, key);
  if (state.isDrained(key)) throw new ShardDrainedError(state.namespace, key);
  const owner = state.ownerOf(key);
  if (owner !== undefined) return ownerView(state, owner, key);
  if (runtime.policy.keys.kind === "fixed" || !hasLiveExecutor(state, now)) {
    throw new NoOwnerError(state.namespace, key, "no executor is available");
  }
  if (state.requestRevision(key) === undefined) {
    if (!runtime.requester.has(key)) checkCapacity(runtime, key);
    await runtime.requester.request(key);
  }
  const timeout = timeoutSignal(CREATE_TIMEOUT_MS, clock);
  try {
    await cache.waitUntil(
      () => state.ownerOf(key) !== undefined || state.isDrained(key),
      signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
    );
  } catch {
    throw new NoOwnerError(state.namespace, key, "it was not placed in time; retry");
  } finally {
    timeout.clear();
    runtime.requester.settled(key);
  }
  const placed = state.ownerOf(key);
  if (placed === undefined) throw new ShardDrainedError(state.namespace, key);
  return ownerView(state, placed, key);
}

/**
 * Who owns `key` in a key-range namespace: the owner of the slice its hash
 * falls in, from memory (a binary search of the slice map). Any string is a
 * key; there is nothing to create.
 */
function rangeOwner(state: NamespaceView, key: string): ShardOwnerView {
  const map = state.sliceMap();
  if (map === undefined) {
    throw new NoOwnerError(state.namespace, key, "the namespace has no slices yet (no executor)");
  }
  const slice = map.sliceOfKey(key);
  const shard = String(slice.id);
  const owner = state.ownerOf(shard);
  if (owner === undefined) {
    throw new NoOwnerError(state.namespace, key, `its slice ${shard} has no owner`);
  }
  return { ...ownerView(state, owner, shard), slice };
}

/**
 * Throws `EphemeralShardLimitExceededError` when a new shard would take an ephemeral
 * namespace past its cap. Counts owned and requested shards from the cache
 * and the keys this instance asked for that the cache does not show yet, so
 * neither etcd nor this instance's memory grows past the cap however fast new
 * keys arrive. Other instances' asks in flight are not seen: with N instances
 * the namespace can overshoot by what N-1 of them write within one watch delay.
 */
function checkCapacity(runtime: RoutedNamespace, key: string): void {
  const { requester, cache } = runtime;
  const { keys } = runtime.policy;
  if (keys.kind === "fixed" || keys.kind === "range") return;
  const { maxShards } = keys;
  const state = cache.state;
  const held = shardCount(state);
  if (held >= maxShards) {
    throw new EphemeralShardLimitExceededError(
      state.namespace,
      maxShards,
      held,
      `it holds ${held} shards; cannot create ${JSON.stringify(key.slice(0, 64))} ` +
        `until some are finished (DONE) and removed`,
    );
  }
  const asked = requester.outstanding((k) =>
    state.requestRevision(k) !== undefined || state.ownerOf(k) !== undefined
  );
  if (held + asked >= maxShards) {
    throw new EphemeralShardLimitExceededError(
      state.namespace,
      maxShards,
      held + asked,
      `it holds ${held} shards and ${asked} more are being created; cannot create ` +
        `${JSON.stringify(key.slice(0, 64))} now`,
    );
  }
}

const counted = new WeakMap<NamespaceView, { revision: number; count: number }>();

/**
 * Shards owned or requested. Requests are cleared soon after they are
 * answered, so the two barely overlap: the exact count (a pass over the
 * requests) is only needed near the cap, and is kept per store revision.
 */
function shardCount(state: NamespaceView): number {
  const upper = state.ownedCount + state.requestCount;
  if (state.requestCount === 0) return upper;
  const memo = counted.get(state);
  if (memo?.revision === state.revision) return memo.count;
  let count = state.ownedCount;
  for (const key of state.tables().requested.keys()) if (state.ownerOf(key) === undefined) count++;
  counted.set(state, { revision: state.revision, count });
  return count;
}

export { compareShardKeys } from "../core/shard_key_order.ts";
