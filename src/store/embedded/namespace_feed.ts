/**
 * The change feed of one embedded namespace: recent batches kept for late
 * watchers, and live subscribers. A watcher that asks for history no longer
 * kept gets a `resync` event first, as with a compacted etcd.
 *
 * @module
 */
import type { NamespaceEventBatch } from "../store.ts";

/** Batches kept per namespace for watchers that start behind. */
export const FEED_HISTORY = 4096;

interface Subscriber {
  push(batch: NamespaceEventBatch): void;
}

/** Recent history and live subscribers of a namespace. */
export class NamespaceFeed {
  #history: NamespaceEventBatch[] = [];
  #trimmedThrough: number;
  #subscribers = new Set<Subscriber>();

  /** A feed whose history before `revision` is unknown (e.g. after a restart). */
  constructor(revision: number) {
    this.#trimmedThrough = revision;
  }

  /** Records a committed batch and hands it to every subscriber. */
  publish(batch: NamespaceEventBatch): void {
    this.#history.push(batch);
    if (this.#history.length > FEED_HISTORY) {
      this.#trimmedThrough = this.#history.shift()!.revision;
    }
    for (const subscriber of this.#subscribers) subscriber.push(batch);
  }

  /** Batches after `afterRevision`, then live ones, until `signal` aborts. */
  watch(afterRevision: number, signal: AbortSignal): ReadableStream<NamespaceEventBatch> {
    const queue: NamespaceEventBatch[] = [];
    let wake: (() => void) | undefined;
    const subscriber: Subscriber = {
      push(batch) {
        queue.push(batch);
        wake?.();
      },
    };
    if (afterRevision < this.#trimmedThrough) {
      queue.push({
        revision: this.#trimmedThrough,
        events: [{ type: "resync", reason: "the history asked for is no longer kept" }],
      });
    } else {
      for (const batch of this.#history) if (batch.revision > afterRevision) queue.push(batch);
    }
    const stop = () => {
      this.#subscribers.delete(subscriber);
      wake?.();
    };
    return new ReadableStream<NamespaceEventBatch>({
      start: () => {
        if (signal.aborted) return;
        this.#subscribers.add(subscriber);
        signal.addEventListener("abort", stop, { once: true });
      },
      pull: async (controller) => {
        while (queue.length === 0 && !signal.aborted) {
          await new Promise<void>((resolve) => wake = resolve);
          wake = undefined;
        }
        if (signal.aborted) {
          controller.close();
          return;
        }
        controller.enqueue(queue.shift()!);
      },
      cancel: stop,
    }, { highWaterMark: 0 });
  }
}
