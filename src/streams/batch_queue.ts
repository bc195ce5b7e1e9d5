/**
 * A push source read in batches: the coalescing stage of heartbeat ingestion.
 *
 * @module
 */

/**
 * Collects pushed items and yields them as arrays: each read takes everything
 * queued since the last read (up to `maxBatch`). While the reader is busy
 * (writing the previous batch), items accumulate, so batches grow with load
 * and latency stays at one write under light load.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BatchQueue } from "./batch_queue.ts";
 * const queue = new BatchQueue<number>({ maxBatch: 10 });
 * queue.push(1);
 * queue.push(2);
 * const { value } = await queue.readable.getReader().read();
 * assert.equal(value?.length, 2);
 * ```
 */
export class BatchQueue<T> {
  /** The batches. */
  readonly readable: ReadableStream<T[]>;
  #items: T[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  /** Creates a queue yielding at most `maxBatch` items per batch. */
  constructor(options: { readonly maxBatch: number }) {
    const { maxBatch } = options;
    if (!(maxBatch >= 1)) throw new RangeError(`maxBatch must be >= 1, got ${maxBatch}`);
    this.readable = new ReadableStream<T[]>({
      pull: async (controller) => {
        while (this.#items.length === 0 && !this.#closed) {
          await new Promise<void>((resolve) => this.#wake = resolve);
        }
        if (this.#items.length === 0) return controller.close();
        controller.enqueue(this.#items.splice(0, maxBatch));
      },
    }, { highWaterMark: 0 });
  }

  /** Number of items waiting. */
  get size(): number {
    return this.#items.length;
  }

  /** Adds an item; throws once closed. */
  push(item: T): void {
    if (this.#closed) throw new Error("BatchQueue is closed");
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
