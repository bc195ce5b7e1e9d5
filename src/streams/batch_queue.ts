/**
 * A push source read in batches: the coalescing stage of heartbeat ingestion.
 *
 * @module
 */

/** Options of {@linkcode BatchQueue}. */
export interface BatchQueueOptions<T> {
  /** Most items in one batch. */
  readonly maxBatch: number;
  /** Most items waiting to be read; past it, new items go to `onOverflow`. @default {Infinity} */
  readonly maxQueued?: number;
  /**
   * Takes an item that arrives while `maxQueued` items wait, instead of
   * queueing it (load shedding: refuse it, say). Required when `maxQueued` is
   * finite.
   */
  readonly onOverflow?: (item: T) => void;
}

/**
 * Collects items and yields them as arrays: each read takes everything queued
 * since the last read (up to `maxBatch`). While the reader is busy (writing
 * the previous batch), items accumulate, so batches grow with load and latency
 * stays at one write under light load.
 *
 * Items come in by {@linkcode BatchQueue.push} or through the `writable` side
 * (so the queue can sit in a `pipeThrough` chain). The readable side is pulled
 * (`highWaterMark` 0): a batch is formed only when the reader asks for it.
 * The writable side never holds a writer back: the queue is the buffer, and
 * its slow-consumer policy is `maxQueued` with `onOverflow` (shed), not
 * backpressure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BatchQueue } from "./batch_queue.ts";
 *
 * const queue = new BatchQueue<number>({ maxBatch: 10 });
 * queue.push(1);
 * queue.push(2);
 * const { value } = await queue.readable.getReader().read();
 * assert.deepEqual(value, [1, 2]);
 * ```
 */
export class BatchQueue<T> {
  /** The batches. */
  readonly readable: ReadableStream<T[]>;
  /** Another way in: each chunk written is pushed; closing it closes the queue. */
  readonly writable: WritableStream<T>;
  #items: T[] = [];
  #wake: (() => void) | undefined;
  #closed = false;
  #maxQueued: number;
  #onOverflow: ((item: T) => void) | undefined;

  /** Creates a queue yielding at most `maxBatch` items per batch. */
  constructor(options: BatchQueueOptions<T>) {
    const { maxBatch, maxQueued = Infinity, onOverflow } = options;
    if (!(maxBatch >= 1)) throw new RangeError(`maxBatch must be >= 1, got ${maxBatch}`);
    if (!(maxQueued >= 1)) throw new RangeError(`maxQueued must be >= 1, got ${maxQueued}`);
    if (maxQueued !== Infinity && !onOverflow) {
      throw new TypeError(`onOverflow is required with a finite maxQueued (${maxQueued})`);
    }
    this.#maxQueued = maxQueued;
    this.#onOverflow = onOverflow;
    let failure: { reason: unknown } | undefined;
    this.readable = new ReadableStream<T[]>({
      pull: async (controller) => {
        while (this.#items.length === 0 && !this.#closed) {
          await new Promise<void>((resolve) => this.#wake = resolve);
        }
        if (failure) return controller.error(failure.reason);
        if (this.#items.length === 0) return controller.close();
        controller.enqueue(this.#items.splice(0, maxBatch));
      },
      cancel: () => {
        this.#closed = true;
        this.#items = [];
      },
    }, { highWaterMark: 0 });
    this.writable = new WritableStream<T>({
      write: (item) => this.push(item),
      close: () => this.close(),
      abort: (reason) => {
        failure = { reason };
        this.#items = [];
        this.close();
      },
    });
  }

  /** Number of items waiting. */
  get size(): number {
    return this.#items.length;
  }

  /** Adds an item (or hands it to `onOverflow` when the queue is full); throws once closed. */
  push(item: T): void {
    if (this.#closed) throw new Error("BatchQueue is closed");
    if (this.#items.length >= this.#maxQueued) return this.#onOverflow?.(item);
    this.#items.push(item);
    this.#wake?.();
    this.#wake = undefined;
  }

  /** Ends the stream after the queued items are read. */
  close(): void {
    this.#closed = true;
    this.#wake?.();
    this.#wake = undefined;
  }
}
