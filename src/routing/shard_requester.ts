/**
 * Coalesced creation of ephemeral shards: many first asks for new keys, from
 * many callers, become few store writes. Only the namespace leader assigns the
 * requested shards, so a key never gets two owners however many instances ask.
 *
 * @module
 */
import type { Store } from "../store/store.ts";

/** Batches requests for new ephemeral shards of one namespace. */
export class ShardRequester {
  #store: Store;
  #namespace: string;
  #pending = new Map<string, PromiseWithResolvers<void>>();
  #flushing: Promise<void> | undefined;

  /** Writes requests for `namespace` to `store`. */
  constructor(store: Store, namespace: string) {
    this.#store = store;
    this.#namespace = namespace;
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
      try {
        await this.#store.requestShards(this.#namespace, [...batch.keys()]);
        for (const entry of batch.values()) entry.resolve();
      } catch (error) {
        for (const entry of batch.values()) entry.reject(error);
      }
    }
    this.#flushing = undefined;
  }
}
