/**
 * Heartbeat ingestion as a pipeline:
 *
 * ```
 * submit() ─ BatchQueue (coalesce while a write is in flight) ─ ExecutorWriter (few etcd txns)
 * ```
 *
 * Each submission resolves once its executor's state is durable (or needed no
 * write); the caller then answers from the namespace cache.
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
import { decideWrite } from "./decide_write.ts";
import type { Heartbeat } from "./validate_heartbeat.ts";

interface Submission {
  readonly heartbeat: Heartbeat;
  readonly cache: NamespaceCache;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** Options of {@linkcode HeartbeatIngest}. */
export interface HeartbeatIngestOptions {
  /** Liveness records are refreshed at most this often per executor. */
  readonly refreshMs: number;
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
  #done: Promise<void>;
  #closed = false;

  /** Starts the pipeline writing to `store`. */
  constructor(store: Store, options: HeartbeatIngestOptions) {
    const clock = options.clock ?? systemClock;
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
          for (const submissions of executors.values()) {
            const latest = submissions.at(-1)!;
            const known = latest.cache.state.executors.get(latest.heartbeat.executorId);
            const write = decideWrite(known, latest.heartbeat, {
              wallNow: clock.now(),
              now: clock.monotonic(),
              refreshMs: options.refreshMs,
            });
            if (write) writes.push(write);
            waiting.push(...submissions);
          }
          try {
            if (writes.length > 0) await store.writeExecutors(namespace, writes);
            written += writes.length;
            for (const s of waiting) s.resolve();
          } catch (error) {
            options.logger.warn("heartbeat write failed", { namespace, error });
            const failure = error instanceof StoreUnavailableError
              ? error
              : new StoreUnavailableError("Could not record the heartbeat", { cause: error });
            for (const s of waiting) s.reject(failure);
          }
        }));
        options.onBatch?.(batch.length, written);
      },
    });
    this.#done = this.#queue.readable.pipeTo(writer);
  }

  /** Queues a validated heartbeat; resolves once it is recorded. */
  submit(heartbeat: Heartbeat, cache: NamespaceCache): Promise<void> {
    if (this.#closed) return Promise.reject(new ShuttingDownError());
    return new Promise((resolve, reject) => {
      this.#queue.push({ heartbeat, cache, resolve, reject });
    });
  }

  /** Stops taking heartbeats and waits for queued ones to be written. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#queue.close();
    await this.#done;
  }
}
