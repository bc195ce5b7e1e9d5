/**
 * Coalesced creation of ephemeral shards: many first asks for new keys, from
 * many callers, become few store writes. Only the namespace leader assigns the
 * requested shards, so a key never gets two owners however many instances ask.
 *
 * @module
 */
import type { Store } from "../store/store.ts";

/** How long a written request counts as outstanding if the cache never shows it. */
const UNSEEN_TTL_MS = 30_000;

/** Options of {@linkcode ShardRequester}. */
export interface ShardRequesterOptions {
  /** Monotonic time in ms. @default {() => performance.now()} */
  readonly now?: () => number;
}

/** Batches requests for new ephemeral shards of one namespace. */
export class ShardRequester {
  #store: Store;
  #namespace: string;
  #now: () => number;
  #pending = new Map<string, PromiseWithResolvers<void>>();
  #writing = new Set<string>();
  /** Written keys the cache may not show yet, with when they were written. */
  #unseen = new Map<string, number>();
  #flushing: Promise<void> | undefined;

  /** Writes requests for `namespace` to `store`. */
  constructor(store: Store, namespace: string, options: ShardRequesterOptions = {}) {
    this.#store = store;
    this.#namespace = namespace;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Whether a request for `shardKey` is waiting to be written or being written. */
  has(shardKey: string): boolean {
    return this.#pending.has(shardKey) || this.#writing.has(shardKey);
  }

  /**
   * Keys asked through this requester that the namespace state does not show
   * yet (`known` says which it does): pending, being written, or written but
   * not yet seen. A cap on shards counts them, so that a flood of new keys
   * cannot outrun the cache.
   */
  outstanding(known: (shardKey: string) => boolean): number {
    const now = this.#now();
    for (const [key, writtenAt] of this.#unseen) {
      if (known(key) || now - writtenAt > UNSEEN_TTL_MS) this.#unseen.delete(key);
    }
    return this.#pending.size + this.#writing.size + this.#unseen.size;
  }

  /** Stops counting `shardKey` as outstanding: the caller saw the cache answer for it. */
  settled(shardKey: string): void {
    this.#unseen.delete(shardKey);
  }

  /** Resolves once a request for `shardKey` is stored (shared by concurrent callers). */
  request(shardKey: string): Promise<void> {
    let entry = this.#pending.get(shardKey);
    if (!entry) {
      entry = Promise.withResolvers<void>();
      this.#pending.set(shardKey, entry);
      this.#flushing ??= this.#flush();
    }
    return entry.promise;
  }

  async #flush(): Promise<void> {
    // Let callers of this tick join the batch.
    await Promise.resolve();
    while (this.#pending.size > 0) {
      const batch = new Map(this.#pending);
      this.#pending.clear();
      for (const key of batch.keys()) this.#writing.add(key);
      try {
        await this.#store.requestShards(this.#namespace, [...batch.keys()]);
        const now = this.#now();
        for (const key of batch.keys()) this.#unseen.set(key, now);
        for (const entry of batch.values()) entry.resolve();
      } catch (error) {
        for (const entry of batch.values()) entry.reject(error);
      } finally {
        for (const key of batch.keys()) this.#writing.delete(key);
      }
    }
    this.#flushing = undefined;
  }
}
