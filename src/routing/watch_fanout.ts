/**
 * Spectator fan-out: every subscriber reads a "latest value" stream of the
 * namespace picture. The picture is built once per version and shared; a slow
 * subscriber skips versions instead of queueing them, so it never holds the
 * others back and always ends with the latest state.
 *
 * Subscribers that accept deltas get the whole picture once, then only what
 * changed since the revision they hold (from the state's `ViewLog`), so a
 * one-shard move costs bytes proportional to the move. A subscriber so far
 * behind that the log no longer covers it gets a whole picture again. Deltas
 * are built once per (from, to) pair and shared by subscribers at the same
 * point.
 *
 * Executors the leader found stale and holding nothing (`NamespaceState.hidden`)
 * are left out of pictures, and a delta lists them in `removedExecutors` at
 * the revision of that decision, so both kinds of subscriber agree; heard from
 * again, such an executor comes back as an upsert.
 *
 * @module
 */
import type { NamespaceCache } from "../state/namespace_cache.ts";
import type { NamespaceDelta, NamespacePicture } from "./views.ts";
import { encodeSliceMap } from "../core/slice_map_codec.ts";

/** Shares namespace pictures among the watchers of one namespace. */
export class WatchFanout {
  #cache: NamespaceCache;
  #built: NamespacePicture | undefined;
  #delta: NamespaceDelta | undefined;
  #subscribers = 0;

  /** Fans out `cache`'s changes. */
  constructor(cache: NamespaceCache) {
    this.#cache = cache;
  }

  /** Streams from {@linkcode subscribe} and {@linkcode subscribeDeltas} still open. */
  get subscribers(): number {
    return this.#subscribers;
  }

  /** The current picture (built at most once per version). */
  current(): NamespacePicture {
    const version = this.#cache.views.version;
    if (this.#built?.version === version) return this.#built;
    const state = this.#cache.state;
    const replicated = state.hasOwnerSets;
    // Executors a leader found stale and holding nothing are out of the routing view.
    const ids = [...state.executors()].map((e) => e.executorId).filter((id) => !state.isHidden(id));
    const executors = ids.sort().map((executorId) => {
      const metadata = state.executor(executorId)?.metadata ?? {};
      const all = state.sortedShardsOf(executorId);
      if (!replicated) return { executorId, metadata, shards: all };
      // A shard is listed under its primary; its other owners list it with their rank.
      const shards: string[] = [];
      const replicaShards: { shard: string; rank: number }[] = [];
      for (const shard of all) {
        const rank = Math.max(0, state.ownersOf(shard).indexOf(executorId));
        if (rank > 0) replicaShards.push({ shard, rank });
        else shards.push(shard);
      }
      return { executorId, metadata, shards, replicaShards };
    });
    const map = state.sliceMap();
    return this.#built = {
      kind: "snapshot",
      version,
      revision: state.revision,
      executors,
      ...(map ? { sliceMap: encodeSliceMap(map) } : {}),
    };
  }

  /** What changed after `fromRevision`, or undefined when that is no longer known. */
  deltaSince(fromRevision: number): NamespaceDelta | undefined {
    const state = this.#cache.state;
    if (this.#delta?.fromRevision === fromRevision && this.#delta.revision === state.revision) {
      return this.#delta;
    }
    const changes = state.changesSince(fromRevision);
    if (!changes) return undefined;
    const map = state.sliceMap();
    const owners = new Map<string, { owner: string | undefined; owners?: readonly string[] }>();
    const executors = new Map<string, Readonly<Record<string, string>> | undefined>();
    let slices = false;
    for (const change of changes) {
      if (change.kind === "slices") slices = true;
      else if (change.kind === "owner") {
        owners.set(
          change.shard,
          change.owners ? { owner: change.owner, owners: change.owners } : { owner: change.owner },
        );
      } else executors.set(change.executorId, change.metadata);
    }
    const upserts = [];
    const removed = [];
    for (const [executorId, metadata] of executors) {
      if (metadata) upserts.push({ executorId, metadata });
      else removed.push(executorId);
    }
    return this.#delta = {
      kind: "delta",
      fromRevision,
      revision: state.revision,
      executors: upserts,
      owners: [...owners].map(([shard, change]) => ({ shard, ...change })),
      removedExecutors: removed,
      ...(slices && map ? { sliceMap: encodeSliceMap(map) } : {}),
    };
  }

  /**
   * A stream whose first chunk is the current picture and whose later chunks
   * follow every change the reader is ready for. Closes when `signal` aborts.
   */
  subscribe(signal: AbortSignal): ReadableStream<NamespacePicture> {
    return this.#subscribe(signal, false) as ReadableStream<NamespacePicture>;
  }

  /** Like `subscribe`, but after the first picture only deltas (whole pictures when far behind). */
  subscribeDeltas(signal: AbortSignal): ReadableStream<NamespacePicture | NamespaceDelta> {
    return this.#subscribe(signal, true);
  }

  #subscribe(
    signal: AbortSignal,
    deltas: boolean,
  ): ReadableStream<NamespacePicture | NamespaceDelta> {
    let seen = -1;
    let at: number | undefined;
    let open = true;
    const ended = () => {
      if (open) this.#subscribers--;
      open = false;
      signal.removeEventListener("abort", ended);
    };
    this.#subscribers++;
    signal.addEventListener("abort", ended, { once: true });
    return new ReadableStream<NamespacePicture | NamespaceDelta>({
      pull: async (controller) => {
        try {
          seen = await this.#cache.views.wait(seen, signal);
        } catch {
          ended();
          return controller.close();
        }
        if (deltas && at !== undefined) {
          const delta = this.deltaSince(at);
          if (delta) {
            seen = this.#cache.views.version;
            if (delta.revision === at) return; // nothing a watcher sees; wait again
            at = delta.revision;
            return controller.enqueue(delta);
          }
        }
        const view = this.current();
        seen = view.version;
        at = view.revision;
        controller.enqueue(view);
      },
      cancel: ended,
    }, { highWaterMark: 0 });
  }
}
