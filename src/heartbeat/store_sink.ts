/**
 * The store sink of heartbeat ingestion: each round's full writes, one
 * `writeExecutors` call per namespace (the store splits it into transactions
 * of at most 128 operations), then the waiting heartbeats are settled.
 *
 * @module
 */
import type { Logger } from "../core/logger.ts";
import type { Store } from "../store/store.ts";
import type { Renewals, WriteRound } from "./classify_writes.ts";
import { unrecorded } from "./submission.ts";

/** The part of the store that heartbeat ingestion writes to. */
export type ExecutorStore = Pick<Store, "writeExecutors">;

/** Options of {@linkcode storeSink}. */
export interface StoreSinkOptions {
  /** Where to log failed writes. */
  readonly logger: Logger;
  /**
   * Where each written record is renewed once more, after its answer: the
   * write may be seen (by this or another instance) before the answer goes
   * out, and the last record seen must never be older than the last answer.
   */
  readonly renewals?: Pick<Renewals, "add">;
  /** Called after each round with its number of heartbeats and of executors written. */
  readonly onBatch?: (heartbeats: number, writes: number) => void;
}

/**
 * Writes rounds one at a time: a round's namespaces are written concurrently,
 * and the next round is asked for only once they are all done (the sink's
 * `highWaterMark` is 1, so the pipe holds no round in reserve). That wait is
 * what lets the next batch coalesce. A namespace's waiting heartbeats resolve
 * with its write's revision (undefined when it needed none), or are rejected
 * (UNAVAILABLE) when the write fails; a failure never errors the sink.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { silentLogger } from "../core/logger.ts";
 * import { storeSink } from "./store_sink.ts";
 *
 * const store = { writeExecutors: () => Promise.resolve(42) };
 * let revision: number | undefined;
 * const write = { executorId: "e1", heartbeat: { status: "ACTIVE" as const, timestampMs: 1 } };
 * await ReadableStream.from([{
 *   heartbeats: 1,
 *   namespaces: [{ namespace: "ns", writes: [write], waiting: [{ resolve: (r?: number) => revision = r, reject() {} }] }],
 * }]).pipeTo(storeSink(store, { logger: silentLogger }));
 * assert.equal(revision, 42);
 * ```
 */
export function storeSink(
  store: ExecutorStore,
  options: StoreSinkOptions,
): WritableStream<WriteRound> {
  return new WritableStream<WriteRound>({
    async write(round) {
      let written = 0;
      await Promise.all(round.namespaces.map(async ({ namespace, writes, waiting }) => {
        try {
          const revision = writes.length > 0
            ? await store.writeExecutors(namespace, writes)
            : undefined;
          written += writes.length;
          for (const w of writes) {
            options.renewals?.add(namespace, { executorId: w.executorId, heartbeat: w.heartbeat });
          }
          for (const s of waiting) s.resolve(revision);
        } catch (error) {
          options.logger.warn("heartbeat write failed", { namespace, error });
          const failure = unrecorded(error);
          for (const s of waiting) s.reject(failure);
        }
      }));
      options.onBatch?.(round.heartbeats, written);
    },
  });
}
