/**
 * Heartbeat answers. An executor heartbeats every second or so and its
 * shards rarely change, so an answer of an available namespace carries a
 * stamp that changes exactly when its shards or their fencing tokens do: the
 * transport keeps the encoded answer under it and rebuilds only then. (At
 * 1,000,000 shards over 1,000 executors, sorting and re-encoding 1,000 shards
 * per heartbeat was a large share of the instance's CPU, and keeping the
 * answers as objects cost 120 MiB.) Answers of exclusive namespaces name the
 * store revision they were computed at, so they are never reused.
 *
 * @module
 */
import type { Slice } from "../core/slices.ts";
import type { NamespaceView } from "../state/namespace_view.ts";
import { compareShardKeys } from "../core/shard_key_order.ts";

/** One shard an executor owns, with its fencing token. */
export interface OwnedShard {
  /** The shard. */
  readonly shardKey: string;
  /** Grows with every new ownership of the shard (the assignment's store revision). */
  readonly fencingToken: number;
  /** The executor must stop it: it is being handed over (exclusive namespaces only). */
  readonly releasing?: boolean;
  /**
   * Warm handover: the executor is the shard's incoming owner and must prepare
   * it, not serve it; `fencingToken` is the token it will hold after the switch.
   */
  readonly preparing?: boolean;
  /** Key-range namespaces: the slice this shard is (its range and generation). */
  readonly slice?: Slice;
}

/** What an executor is told in answer to a heartbeat. */
export interface HeartbeatAnswer {
  /** Equal stamps (for one namespace and executor) mean equal answers; undefined: never equal. */
  readonly stamp: number | undefined;
  /** Shards the executor owns now, sorted; built on each call. */
  shards(): readonly OwnedShard[];
  /**
   * Set for an exclusive namespace: the lease the executor must honour, and
   * the store revision of the picture the answer was computed from.
   */
  readonly exclusive?: { readonly leaseMs: number; readonly revision: number };
  /**
   * Shards the executor still reports that the leader quarantined (poison
   * shards): it stops them and does not retry them. Absent when none.
   */
  readonly quarantined?: readonly string[];
}

/**
 * The answer for `executorId` from `state`, read when `shards()` is called;
 * `leaseMs` is the ownership lease of an exclusive namespace.
 */
export function heartbeatAnswer(
  state: NamespaceView,
  executorId: string,
  leaseMs?: number,
): HeartbeatAnswer {
  const exclusive = leaseMs !== undefined;
  // Answers naming prepares are rare (moves in flight) and never reused.
  const preparing = state.preparingShardsOf(executorId);
  const quarantined = state.drainReasons.size === 0 ? [] : quarantinedOf(state, executorId);
  // Key-range namespaces: a slice's range changes with its shard set unchanged (a split
  // shrinks it), so their answers carry the ranges and are never reused.
  const slices = state.sliceMap();
  const owned = () =>
    state.sortedShardsOf(executorId).map((shardKey): OwnedShard => {
      const slice = slices?.find(Number(shardKey));
      return {
        shardKey,
        fencingToken: state.fencingToken(shardKey) ?? 0,
        ...(exclusive && state.releasedAt(shardKey) !== undefined ? { releasing: true } : {}),
        ...(slice ? { slice } : {}),
      };
    });
  return {
    stamp: exclusive || preparing.size > 0 || quarantined.length > 0 || slices !== undefined
      ? undefined
      : state.shardSetStamp(executorId),
    shards: () => preparing.size === 0 ? owned() : withPreparing(owned(), state, preparing),
    ...(exclusive ? { exclusive: { leaseMs, revision: state.revision } } : {}),
    ...(quarantined.length > 0 ? { quarantined } : {}),
  };
}

/** The shards `executorId` reports that are drained with the reason `quarantined`, sorted. */
function quarantinedOf(state: NamespaceView, executorId: string): string[] {
  const reports = state.executor(executorId)?.reports;
  if (reports === undefined) return [];
  const out: string[] = [];
  for (const [shardKey, reason] of state.drainReasons) {
    if (reason === "quarantined" && reports.has(shardKey)) out.push(shardKey);
  }
  return out.sort(compareShardKeys);
}

/** `owned` and the shards being prepared, in shard key order. */
function withPreparing(
  owned: OwnedShard[],
  state: NamespaceView,
  preparing: ReadonlySet<string>,
): OwnedShard[] {
  const slices = state.sliceMap();
  for (const shardKey of preparing) {
    const entry = state.preparingOf(shardKey);
    if (!entry) continue;
    // A key-range slice being prepared: the incoming owner learns its range too.
    const slice = slices?.find(Number(shardKey));
    owned.push({
      shardKey,
      fencingToken: entry.revision,
      preparing: true,
      ...(slice ? { slice } : {}),
    });
  }
  return owned.sort((a, b) => compareShardKeys(a.shardKey, b.shardKey));
}
