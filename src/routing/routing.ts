/**
 * Routing queries, answered from the in-memory namespace state (never a
 * per-request store read). Only the first ask for a new ephemeral shard
 * touches the store, through the coalescing `ShardRequester`.
 *
 * @module
 */
import { sleep } from "../core/clock.ts";
import { NoOwnerError, ShardDrainedError } from "../core/errors.ts";
import type { NamespaceState } from "../state/namespace_state.ts";
import { assertShardExists, type NamespaceRuntime } from "./namespace_runtime.ts";
import type { ShardOwnerView } from "./views.ts";

/** How long a first ask for an ephemeral shard waits for the leader to place it. */
export const CREATE_TIMEOUT_MS = 10_000;

/** The owner of a shard as routing answers it. */
export function ownerView(state: NamespaceState, owner: string): ShardOwnerView {
  return {
    namespace: state.namespace,
    owner,
    metadata: state.executors.get(owner)?.metadata ?? {},
  };
}

function hasLiveExecutor(state: NamespaceState, now: number): boolean {
  for (const e of state.executors.values()) {
    if (e.status === "ACTIVE" && state.isAlive(e, now)) return true;
  }
  return false;
}

/**
 * Who owns `key`; an ephemeral shard is created on first ask and the call
 * waits (up to `CREATE_TIMEOUT_MS` or until `signal` aborts) for its owner.
 */
export async function getShardOwner(
  runtime: NamespaceRuntime,
  key: string,
  now: number,
  signal?: AbortSignal,
): Promise<ShardOwnerView> {
  assertShardExists(runtime, key);
  const { cache } = runtime;
  const state = cache.state;
  if (state.drained.has(key)) throw new ShardDrainedError(state.namespace, key);
  const owner = state.owners.get(key);
  if (owner !== undefined) return ownerView(state, owner);
  if (runtime.config.type === "fixed" || !hasLiveExecutor(state, now)) {
    throw new NoOwnerError(state.namespace, key, "no executor is available");
  }
  if (!state.requested.has(key)) await runtime.requester.request(key);
  const timeout = new AbortController();
  const timer = sleep(CREATE_TIMEOUT_MS, timeout.signal).then(() => timeout.abort(), () => {});
  try {
    await cache.waitUntil(
      () => state.owners.has(key) || state.drained.has(key),
      signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
    );
  } catch {
    throw new NoOwnerError(state.namespace, key, "it was not placed in time; retry");
  } finally {
    timeout.abort();
    await timer;
  }
  const placed = state.owners.get(key);
  if (placed === undefined) throw new ShardDrainedError(state.namespace, key);
  return ownerView(state, placed);
}

/**
 * Orders decimal keys ("0", "17") numerically and before all others, which are
 * ordered lexically. A total order, so sorting gives the same result whatever
 * the input order.
 */
export function compareShardKeys(a: string, b: string): number {
  const da = isCanonicalDecimal(a), db = isCanonicalDecimal(b);
  if (da !== db) return da ? -1 : 1;
  // Canonical decimals of different lengths compare by length, at any size.
  if (da && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True for "0" and decimals without a leading zero; a loop, as sorting calls it n·log n times. */
function isCanonicalDecimal(key: string): boolean {
  const n = key.length;
  if (n === 0) return false;
  const first = key.charCodeAt(0);
  if (first === 48) return n === 1;
  if (first < 49 || first > 57) return false;
  for (let i = 1; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
