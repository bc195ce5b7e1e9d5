/**
 * Heartbeat ingestion as a pipeline:
 *
 * ```
 * submit() ─ BatchQueue (coalesce while a write is in flight) ─ ExecutorWriter (few etcd txns)
 *                                                             └ RefreshBuffer (liveness only,
 *                                                               flushed every flushMs)
 * ```
 *
 * A submission that changes its executor's status, metadata or reports
 * resolves once that is durable; one that only renews the liveness record
 * resolves at once and the renewal is written with the next flush (unless the
 * store is known to be unreachable: then it is refused, so the executor learns
 * that it is not being recorded).
 * The caller then answers from the namespace cache.
 *
 * Liveness is judged from when an instance sees a heartbeat record, so every
 * answered heartbeat is recorded by a write that lands after its answer: a
 * renewal is flushed after it (the latest one per executor per flush), and a
 * write that had to be made before answering is followed by a renewal too.
 * Hence no instance sees an executor's last record before the service
 * answered its last heartbeat, and staleness (TTL after the record is seen)
 * never comes before the TTL has passed since that answer.
 *
 * @module
 */
import { type Clock, systemClock } from "../core/clock.ts";
import { ShuttingDownError, StoreUnavailableError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import type { ExecutorWrite } from "../core/types.ts";
import type { NamespaceCache } from "../state/namespace_cache.ts";
import type { Store } from "../store/store.ts";
import { BatchQueue } from "../streams/batch_queue.ts";
import { classifyWrite } from "./decide_write.ts";
import { RefreshBuffer } from "./refresh_buffer.ts";
import type { Heartbeat } from "./validate_heartbeat.ts";

interface Submission {
  readonly heartbeat: Heartbeat;
  readonly cache: NamespaceCache;
  /** Write the liveness record now, whatever coalescing would decide (exclusive namespaces). */
  readonly record: boolean;
  readonly resolve: (revision?: number) => void;
  readonly reject: (error: unknown) => void;
}

/** Options of {@linkcode HeartbeatIngest}. */
export interface HeartbeatIngestOptions {
  /** Buffered liveness refreshes are written this often (at most once per executor each time). */
  readonly flushMs: number;
  /** Whether the store answers (from the health monitor). @default {always true} */
  readonly storeReachable?: () => boolean;
  /** Most heartbeats coalesced into one write round. @default {4096} */
  readonly maxBatch?: number;
  /** Time source. @default {systemClock} */
  readonly clock?: Clock;
  /** Where to log. */
  readonly logger: Logger;
  /** Called with the size of each batch and the number of executors written. */
  readonly onBatch?: (heartbeats: number, writes: number) => void;
}

/** The heartbeat ingestion pipeline of one service instance. */
export class HeartbeatIngest {
  #queue: BatchQueue<Submission>;
  #refresh: RefreshBuffer;
  #done: Promise<void>;
  #closed = false;

  /** Starts the pipeline writing to `store`. */
  constructor(store: Store, options: HeartbeatIngestOptions) {
    const clock = options.clock ?? systemClock;
    const refresh = this.#refresh = new RefreshBuffer(store, {
      flushMs: options.flushMs,
      logger: options.logger,
    });
    this.#queue = new BatchQueue<Submission>({ maxBatch: options.maxBatch ?? 4096 });
    const writer = new WritableStream<Submission[]>({
      async write(batch) {
        const byNamespace = new Map<string, Map<string, Submission[]>>();
        for (const s of batch) {
          const executors = byNamespace.get(s.heartbeat.namespace) ?? new Map();
          byNamespace.set(s.heartbeat.namespace, executors);
          const list = executors.get(s.heartbeat.executorId) ?? [];
          list.push(s);
          executors.set(s.heartbeat.executorId, list);
        }
        let written = 0;
        await Promise.all([...byNamespace].map(async ([namespace, executors]) => {
          const writes: ExecutorWrite[] = [];
          const waiting: Submission[] = [];
          for (const [executorId, submissions] of executors) {
            const latest = submissions.at(-1)!;
            const known = latest.cache.state.executor(executorId);
            const decision = classifyWrite(known, latest.heartbeat, { wallNow: clock.now() });
            if (decision.refreshOnly && !latest.record) {
              refresh.add(namespace, decision.write);
              if (options.storeReachable?.() === false) {
                const failure = unavailable(refresh.failure ?? "the store is unreachable");
                for (const s of submissions) s.reject(failure);
              } else {
                for (const s of submissions) s.resolve();
              }
              continue;
            }
            refresh.drop(namespace, executorId);
            // Exclusive namespaces: the reports are written with every heartbeat, because
            // whether they changed is judged from this instance's cache, which may lag, and a
            // handover is confirmed by the reports stored with a heartbeat record.
            writes.push(
              latest.record
                ? { ...decision.write, reports: latest.heartbeat.reports }
                : decision.write,
            );
            waiting.push(...submissions);
          }
          try {
            const revision = writes.length > 0
              ? await store.writeExecutors(namespace, writes)
              : undefined;
            written += writes.length;
            // The write was seen (by this or another instance) before the answer goes out:
            // renew once more after it, so the last record seen is never older than the answer.
            for (const w of writes) {
              refresh.add(namespace, { executorId: w.executorId, heartbeat: w.heartbeat });
            }
            for (const s of waiting) s.resolve(revision);
          } catch (error) {
            options.logger.warn("heartbeat write failed", { namespace, error });
            for (const s of waiting) s.reject(unavailable(error));
          }
        }));
        options.onBatch?.(batch.length, written);
      },
    });
    this.#done = this.#queue.readable.pipeTo(writer);
  }

  /**
   * Queues a validated heartbeat; resolves once it is recorded, with the store
   * revision of the write when it was written at once. With `record`, the
   * liveness record is always written at once (never coalesced or buffered).
   */
  submit(
    heartbeat: Heartbeat,
    cache: NamespaceCache,
    options: { readonly record?: boolean } = {},
  ): Promise<number | undefined> {
    if (this.#closed) return Promise.reject(new ShuttingDownError());
    return new Promise((resolve, reject) => {
      this.#queue.push({ heartbeat, cache, record: options.record ?? false, resolve, reject });
    });
  }

  /** Stops taking heartbeats and waits for queued ones (and buffered refreshes) to be written. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#queue.close();
    await this.#done;
    await this.#refresh.close();
  }
}

function unavailable(error: unknown): StoreUnavailableError {
  return error instanceof StoreUnavailableError
    ? error
    : new StoreUnavailableError("Could not record the heartbeat", { cause: error });
}
