/**
 * Heartbeat ingestion, composed of named stages:
 *
 * ```
 * submit(raw) ─► ValidateStream ─► BatchQueue ─► classifyWrites ─► storeSink (full writes, awaited)
 *   validate_stream.ts   (coalesce while   classify_writes.ts   store_sink.ts
 *                         a write is in        │
 *                         flight)              └─ renewals ─► RefreshBuffer ◄─ ticker(flushMs)
 *                                                              refresh_buffer.ts (not awaited)
 * ```
 *
 * A submission that changes its executor's status, metadata or reports
 * resolves once that is durable; one that only renews the liveness record
 * resolves at once and the renewal is written with the next flush (unless the
 * store is known to be unreachable: then it is refused, so the executor learns
 * that it is not being recorded). The caller then answers from the namespace
 * cache.
 *
 * Liveness is judged from when an instance sees a heartbeat record, so every
 * answered heartbeat is recorded by a write that lands after its answer: a
 * renewal is flushed after it (the latest one per executor per flush), and a
 * write that had to be made before answering is followed by a renewal too.
 * Hence no instance sees an executor's last record before the service
 * answered its last heartbeat, and staleness (TTL after the record is seen)
 * never comes before the TTL has passed since that answer.
 *
 * Backpressure: `storeSink` holds one round at a time and `classifyWrites` is
 * pulled, so a batch is formed only when the previous one is written; until
 * then heartbeats wait in `BatchQueue`, which is the pipeline's only buffer.
 * Its slow-consumer policy is shedding: past `maxQueued` waiting heartbeats, a
 * new one is refused at once (UNAVAILABLE; the executor retries on its next
 * beat) rather than holding the RPC while memory grows.
 *
 * @module
 */
import { type Clock, systemClock } from "../core/clock.ts";
import { ShuttingDownError, StoreUnavailableError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import type { RequestLimits } from "../limits/request_limits.ts";
import { BatchQueue } from "../streams/batch_queue.ts";
import { classifyWrites } from "./classify_writes.ts";
import { RefreshBuffer } from "./refresh_buffer.ts";
import { ReportsMemo } from "./reports_memo.ts";
import { type ExecutorStore, storeSink } from "./store_sink.ts";
import type { NamespaceLookup, Pending, RawSubmission, Submission } from "./submission.ts";
import type { RawHeartbeat } from "./validate_heartbeat.ts";
import { ValidateStream } from "./validate_stream.ts";

/** Options of {@linkcode HeartbeatIngest}. */
export interface HeartbeatIngestOptions {
  /** The namespaces this instance serves; a heartbeat for another fails with NOT_FOUND. */
  readonly namespaces: NamespaceLookup;
  /** Buffered liveness refreshes are written this often (at most once per executor each time). */
  readonly flushMs: number;
  /** Request limits heartbeats are validated against. @default {DEFAULT_REQUEST_LIMITS} */
  readonly limits?: RequestLimits;
  /** Whether the store answers (from the health monitor). @default {always true} */
  readonly storeReachable?: () => boolean;
  /** Most heartbeats coalesced into one write round. @default {4096} */
  readonly maxBatch?: number;
  /** Most heartbeats waiting for a write round; more are refused (UNAVAILABLE). @default {100000} */
  readonly maxQueued?: number;
  /** Time source (also of the refresh timer). @default {systemClock} */
  readonly clock?: Clock;
  /** Cancels the pipeline: waiting heartbeats fail with `ShuttingDownError`, nothing more is flushed. */
  readonly signal?: AbortSignal;
  /** Where to log. */
  readonly logger: Logger;
  /** Called with the size of each batch and the number of executors written. */
  readonly onBatch?: (heartbeats: number, writes: number) => void;
}

/**
 * The heartbeat ingestion pipeline of one service instance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { silentLogger } from "../core/logger.ts";
 * import { HeartbeatIngest } from "./heartbeat_ingest.ts";
 *
 * const store = { writeExecutors: () => Promise.resolve(7) };
 * const ns = { executor: () => undefined, recordEvery: false };
 * const ingest = new HeartbeatIngest(store, {
 *   namespaces: (name) => name === "ns" ? ns : undefined,
 *   flushMs: 250,
 *   logger: silentLogger,
 * });
 * const raw = { namespace: "ns", executorId: "e1", status: "ACTIVE", reports: {}, metadata: {} };
 * assert.equal(await ingest.submit(raw), 7); // a new executor: written at once
 * await assert.rejects(ingest.submit({ ...raw, namespace: "other" }), /other/);
 * await ingest.close();
 * ```
 */
export class HeartbeatIngest {
  #entry: WritableStreamDefaultWriter<RawSubmission>;
  #refresh: RefreshBuffer;
  #pending = new Set<Pending>();
  #stop = new AbortController();
  #done: Promise<void>;
  #closed = false;

  /** Starts the pipeline writing to `store`. */
  constructor(store: ExecutorStore, options: HeartbeatIngestOptions) {
    const clock = options.clock ?? systemClock;
    const signal = this.#stop.signal;
    if (options.signal) {
      const outer = options.signal;
      if (outer.aborted) this.#stop.abort(outer.reason);
      else outer.addEventListener("abort", () => this.#stop.abort(outer.reason), { once: true });
    }
    const maxQueued = options.maxQueued ?? 100_000;
    const refresh = this.#refresh = new RefreshBuffer(store, {
      flushMs: options.flushMs,
      logger: options.logger,
      clock,
      signal,
    });
    const memo = new ReportsMemo();
    const validate = new ValidateStream(options.namespaces, {
      ...(options.limits ? { limits: options.limits } : {}),
      memo,
    });
    const batches = new BatchQueue<Submission>({
      maxBatch: options.maxBatch ?? 4096,
      maxQueued,
      onOverflow: (s) => s.reject(overloaded(maxQueued)),
    });
    const rounds = classifyWrites(validate.readable.pipeThrough(batches, { signal }), {
      renewals: refresh,
      clock,
      memo,
      ...(options.storeReachable ? { storeReachable: options.storeReachable } : {}),
    });
    this.#entry = validate.writable.getWriter();
    this.#done = rounds.pipeTo(storeSink(store, { ...options, renewals: refresh }), { signal })
      .catch((error) => {
        if (signal.aborted) return;
        options.logger.error("heartbeat pipeline failed", { error });
        this.#fail(error);
      });
    // Cancelled: nobody waits for a write in flight (the pipe itself does, before it stops).
    signal.addEventListener("abort", () => this.#fail(new ShuttingDownError()), { once: true });
  }

  #fail(error: unknown): void {
    this.#closed = true;
    for (const pending of this.#pending) pending.reject(error);
  }

  /**
   * Queues a heartbeat as decoded; resolves once it is validated and
   * recorded, with the store revision of the write when it was written at
   * once. Validation errors reject it (INVALID_ARGUMENT, NOT_FOUND).
   */
  submit(raw: RawHeartbeat): Promise<number | undefined> {
    if (this.#closed) return Promise.reject(new ShuttingDownError());
    return new Promise((resolve, reject) => {
      const pending: RawSubmission = {
        raw,
        resolve: (revision) => {
          this.#pending.delete(pending);
          resolve(revision);
        },
        reject: (error) => {
          this.#pending.delete(pending);
          reject(error);
        },
      };
      this.#pending.add(pending);
      this.#entry.write(pending).catch(() => {}); // a failed pipeline rejects it (above)
    });
  }

  /** Stops taking heartbeats and waits for queued ones (and buffered refreshes) to be written. */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#entry.close().catch(() => {});
    }
    await this.#done;
    await this.#refresh.close();
  }
}

function overloaded(maxQueued: number): StoreUnavailableError {
  return new StoreUnavailableError(
    `Heartbeat not recorded: ${maxQueued} heartbeats already wait for the store (maxQueued)`,
  );
}
