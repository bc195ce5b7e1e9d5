/**
 * The change feed of one namespace: an etcd watch decoded into batches of
 * domain events, one batch per store revision.
 *
 * Backpressure: the stream buffers at most `highWaterMarkBytes` of decoded
 * batches (counted as the bytes of their keys and values; one batch always
 * fits). When the reader falls that far behind, the etcd watch is **paused**:
 * cancelled, remembering the first revision not yet delivered. Once the
 * reader has taken half of the buffer, it **resumes**: a new watch from that
 * revision. etcd's history is durable, so nothing is lost or reordered while
 * paused: the reader gets every revision exactly once, in order. If etcd has
 * compacted past that revision meanwhile, the new watch is refused and the
 * stream ends with a `resync` event, which the reader already handles by
 * reloading a snapshot. (etcd3's watchers share one gRPC stream per client,
 * so pausing that stream would stall every namespace; cancelling this watch
 * stalls only this one.)
 *
 * Connection loss: etcd3 reconnects a lost watch stream by itself (retrying
 * with the client's watch backoff, `WATCH_RETRY_MAX_MS` in `client.ts` at
 * most) and resumes every watcher after the last revision it delivered.
 * Meanwhile the feed is silent; `onConnection` tells the reader so.
 *
 * @module
 */
import type { Etcd3, IWatchResponse, Watcher } from "etcd3";
import type { NamespaceEventBatch } from "../store.ts";
import type { NamespaceKeys } from "./keys.ts";
import { errorText } from "./txn.ts";
import { byRevision, EventDecoder } from "./watch_decoder.ts";
import { cancelWatcher, openWatcher } from "./watchers.ts";

/** Options of {@linkcode watchNamespace}. */
export interface WatchNamespaceOptions {
  /** Most bytes of decoded batches waiting for the reader before the watch pauses. @default {16 MiB} */
  readonly highWaterMarkBytes?: number;
  /** Told when the watch pauses (buffer full) or resumes (half empty), with the bytes buffered. */
  readonly onFlow?: (event: "paused" | "resumed", bufferedBytes: number) => void;
  /**
   * Told `false` when etcd3 reports the watch stream lost (it reconnects it
   * and resumes from the last revision seen) and `true` once it is created
   * again; only on changes.
   */
  readonly onConnection?: (connected: boolean) => void;
}

/**
 * Default {@linkcode WatchNamespaceOptions.highWaterMarkBytes}: 16 MiB, about
 * ten of the largest batches etcd accepts (1.5 MiB per request).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WATCH_BUFFER_BYTES } from "./watch_namespace.ts";
 *
 * assert.equal(WATCH_BUFFER_BYTES, 16 * 1024 * 1024);
 * ```
 */
export const WATCH_BUFFER_BYTES = 16 * 1024 * 1024;

/**
 * Streams the namespace's changes after `afterRevision`. When etcd cancels the
 * watch (history compacted, or an error) the stream yields a `resync` event
 * and closes; the reader then reloads a snapshot and watches again. A slow
 * reader pauses the watch (see the module doc).
 *
 * @example (needs an etcd: `tests/store_watch_backpressure_test.ts` runs it)
 * ```ts ignore
 * const changes = watchNamespace(client, new NamespaceKeys("store", "ns"), revision, signal);
 * for await (const batch of changes) cache.apply(batch);
 * ```
 */
export function watchNamespace(
  client: Etcd3,
  keys: NamespaceKeys,
  afterRevision: number,
  signal: AbortSignal,
  options: WatchNamespaceOptions = {},
): ReadableStream<NamespaceEventBatch> {
  const limit = options.highWaterMarkBytes ?? WATCH_BUFFER_BYTES;
  if (!(limit > 0)) throw new RangeError(`highWaterMarkBytes must be positive, got ${limit}`);
  const sizes = new WeakMap<NamespaceEventBatch, number>();
  const decoder = new EventDecoder(client, keys);
  let controller!: ReadableStreamDefaultController<NamespaceEventBatch>;
  let watcher: Watcher | undefined; // undefined while paused
  let next = afterRevision + 1; // the first revision not yet delivered
  let closed = false;
  let chain = Promise.resolve();
  let connected = true;
  const tell = (now: boolean) => {
    if (now === connected) return;
    connected = now;
    options.onConnection?.(now);
  };
  const buffered = () => limit - (controller.desiredSize ?? 0);

  // The reader may cancel the stream while a batch is still being decoded: the resync and the
  // close queued behind it then find the stream cancelled, and enqueue and close throw. A
  // rejection nobody handles would end the process (an instance exited 1 in the soak when a
  // namespace was deleted as an etcd member was killed).
  const lastly = (step: () => void) => {
    chain = chain.then(step).catch(() => {});
  };
  const finish = (reason: string) => {
    if (closed) return;
    closed = true;
    lastly(() => {
      if (!signal.aborted) {
        controller.enqueue({ revision: 0, events: [{ type: "resync", reason }] });
      }
      controller.close();
    });
    void cancelWatcher(watcher);
  };
  const onAbort = () => {
    if (closed) return;
    closed = true;
    void cancelWatcher(watcher);
    lastly(() => controller.close());
  };
  const pause = () => {
    void cancelWatcher(watcher);
    watcher = undefined;
    options.onFlow?.("paused", buffered());
  };
  const watch = () => {
    const own = openWatcher(client.watch().prefix(keys.root).startRevision(String(next)));
    watcher = own;
    const current = () => watcher === own && !closed;
    own.on("data", (res: IWatchResponse) => {
      if (!current()) return;
      if (res.compact_revision && res.compact_revision !== "0") {
        return finish(`history compacted at revision ${res.compact_revision}`);
      }
      chain = chain.then(async () => {
        // Decoded one revision at a time, so nothing past a pause is decoded twice.
        for (const group of byRevision(res.events ?? [])) {
          if (!current()) return; // paused: the rest is read again from `next`
          if (group.revision < next) continue;
          const batch = await decoder.decode(group);
          if (!current()) return;
          sizes.set(batch, group.bytes);
          controller.enqueue(batch);
          next = group.revision + 1;
          if ((controller.desiredSize ?? 0) <= 0) return pause();
        }
      }).catch((error) => finish(`watch decoding failed: ${errorText(error)}`));
    });
    // etcd3 emits `disconnected` once per failed attempt while it reconnects.
    own.on("disconnected", () => current() && tell(false));
    own.on("connected", () => current() && tell(true));
    own.on("error", (error: Error) => {
      // etcd gives no reason when history was compacted past the watch's start (etcd3 drops the
      // compact revision it sends).
      const text = errorText(error).replace(
        /^Watcher canceled: *$/,
        "etcd cancelled the watch " +
          "(history compacted past its start revision)",
      );
      if (current()) finish(`watch failed: ${text}`);
    });
  };

  return new ReadableStream<NamespaceEventBatch>({
    start(c) {
      controller = c;
      signal.addEventListener("abort", onAbort, { once: true });
      if (signal.aborted) return onAbort();
      watch();
    },
    pull() {
      // Called as the reader takes batches; resume once half the buffer is free.
      if (watcher || closed || buffered() > limit / 2) return;
      watch();
      options.onFlow?.("resumed", buffered());
    },
    cancel() {
      closed = true;
      return cancelWatcher(watcher);
    },
  }, { highWaterMark: limit, size: (batch) => Math.max(1, sizes.get(batch) ?? 1) });
}
