/**
 * Fan-out of events to any number of async iterators, each with a bounded
 * buffer: a consumer that falls behind loses its oldest events (and is told
 * how many), never the producer's time or memory.
 *
 * @module
 */

/** Options of {@linkcode EventHub.subscribe}. */
export interface SubscribeOptions {
  /** Ends the iterator. */
  readonly signal?: AbortSignal;
}

interface Subscriber<T> {
  readonly buffer: T[];
  dropped: number;
  wake: (() => void) | undefined;
  ended: boolean;
}

/**
 * Delivers each emitted event to every current subscriber.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EventHub } from "./event_hub.ts";
 *
 * type Ev = { type: "tick"; n: number } | { type: "dropped"; count: number };
 * const hub = new EventHub<Ev>(2, (count) => ({ type: "dropped", count }));
 * const events = hub.subscribe();
 * for (let n = 0; n < 3; n++) hub.emit({ type: "tick", n });
 * hub.close();
 * const seen = [];
 * for await (const event of events) seen.push(event);
 * assert.equal(seen[0]?.type, "dropped");
 * assert.equal(seen.length, 3);
 * ```
 */
export class EventHub<T> {
  readonly #size: number;
  readonly #dropped: (count: number) => T;
  readonly #subscribers = new Set<Subscriber<T>>();
  #closed = false;

  /** `size` events are buffered per subscriber; `dropped(n)` makes the marker of a gap. */
  constructor(size: number, dropped: (count: number) => T) {
    this.#size = size;
    this.#dropped = dropped;
  }

  /** Sends `event` to every subscriber, dropping its oldest event when its buffer is full. */
  emit(event: T): void {
    if (this.#closed) return;
    for (const sub of this.#subscribers) {
      if (sub.buffer.length >= this.#size) {
        sub.buffer.shift();
        sub.dropped++;
      }
      sub.buffer.push(event);
      sub.wake?.();
    }
  }

  /**
   * An iterator of the events emitted from now on. It ends after
   * {@linkcode EventHub.close} once its buffer is empty, when `signal` aborts,
   * or when the consumer breaks out of its loop.
   */
  subscribe(options: SubscribeOptions = {}): AsyncIterableIterator<T> {
    const sub: Subscriber<T> = { buffer: [], dropped: 0, wake: undefined, ended: this.#closed };
    const end = () => {
      sub.ended = true;
      this.#subscribers.delete(sub);
      options.signal?.removeEventListener("abort", end);
      sub.wake?.();
    };
    if (!sub.ended) this.#subscribers.add(sub);
    if (options.signal?.aborted) end();
    else options.signal?.addEventListener("abort", end, { once: true });
    const next = async (): Promise<IteratorResult<T>> => {
      while (true) {
        if (sub.dropped > 0 && !options.signal?.aborted) {
          const count = sub.dropped;
          sub.dropped = 0;
          return { value: this.#dropped(count), done: false };
        }
        const value = options.signal?.aborted ? undefined : sub.buffer.shift();
        if (value !== undefined) return { value, done: false };
        if (sub.ended) return { value: undefined, done: true };
        await new Promise<void>((resolve) => sub.wake = resolve);
        sub.wake = undefined;
      }
    };
    return {
      next,
      return: () => {
        end();
        sub.buffer.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** Ends every iterator once it has delivered what it buffered; later emits are ignored. */
  close(): void {
    this.#closed = true;
    for (const sub of [...this.#subscribers]) {
      sub.ended = true;
      this.#subscribers.delete(sub);
      sub.wake?.();
    }
  }
}
