/**
 * What a spectator does on a miss: in an ephemeral namespace it asks the
 * service (`GetShardOwner` creates the shard); in a fixed one a miss means
 * the shard has no owner right now, and nothing is asked. Concurrent misses
 * of one key share one call.
 *
 * @module
 */
import { ShardOwnerLookupError } from "./errors.ts";
import type { NamespaceType, SpectatorTransport } from "./transport.ts";
import type { Owner } from "./types.ts";
import { frozenMetadata } from "./frozen_metadata.ts";

/** What {@linkcode OwnerFallback} needs. */
export interface OwnerFallbackOptions {
  /** How to reach the service. */
  readonly transport: SpectatorTransport;
  /** The namespace. */
  readonly namespace: string;
  /** Service addresses. */
  readonly addresses: readonly string[];
  /** The shard model when known; learned from the service otherwise. */
  readonly namespaceType: NamespaceType | undefined;
  /** Deadline of each call, ms. */
  readonly callTimeoutMs: number;
  /** Aborts every call (the spectator closing). */
  readonly signal: AbortSignal;
}

/** Asks the service about shards the local map does not have. */
export class OwnerFallback {
  readonly #options: OwnerFallbackOptions;
  /** "unlisted": the service answered but does not know the namespace. */
  #type: NamespaceType | "unlisted" | undefined;
  #typeLookup: Promise<NamespaceType | "unlisted" | undefined> | undefined;
  readonly #inflight = new Map<string, Promise<AskedOwners>>();

  /** A fallback configured by `options`. */
  constructor(options: OwnerFallbackOptions) {
    this.#options = options;
    this.#type = options.namespaceType;
  }

  /**
   * Whether a miss should be asked of the service: false only for a fixed
   * namespace. The type is learned once (`ListNamespaces`); while the service
   * cannot say, misses are asked. Never rejects.
   */
  async asksOnMiss(preferred: string | undefined): Promise<boolean> {
    if (this.#type === undefined) {
      this.#typeLookup ??= this.#learnType(preferred).finally(() => this.#typeLookup = undefined);
      this.#type = await this.#typeLookup;
    }
    return this.#type !== "fixed";
  }

  /**
   * The owner of `shardKey` according to the service, trying `preferred`
   * first and then every other address while failures are retryable. Throws
   * a {@linkcode ShardOwnerLookupError}.
   */
  lookup(shardKey: string, preferred: string | undefined): Promise<AskedOwners> {
    let call = this.#inflight.get(shardKey);
    if (call === undefined) {
      call = this.#ask(shardKey, preferred).finally(() => this.#inflight.delete(shardKey));
      this.#inflight.set(shardKey, call);
    }
    return call;
  }

  async #ask(shardKey: string, preferred: string | undefined): Promise<AskedOwners> {
    const { transport, namespace, callTimeoutMs, signal } = this.#options;
    let last: unknown = new Error("no address to ask");
    for (const address of this.#order(preferred)) {
      if (signal.aborted) break;
      try {
        const owner = await transport.getShardOwner(address, namespace, shardKey, {
          signal,
          deadlineMs: callTimeoutMs,
        });
        const freeze = (o: Owner): Owner =>
          Object.freeze({ executorId: o.executorId, metadata: frozenMetadata(o.metadata) });
        const primary = freeze(owner);
        const all = owner.owners && owner.owners.length > 1
          ? Object.freeze(owner.owners.map(freeze))
          : Object.freeze([primary]);
        return { owner: primary, owners: all };
      } catch (error) {
        last = error;
        if (!transport.isRetryable(error)) break;
      }
    }
    throw new ShardOwnerLookupError(namespace, shardKey, signal.aborted ? signal.reason : last);
  }

  async #learnType(preferred: string | undefined): Promise<NamespaceType | "unlisted" | undefined> {
    const { transport, namespace, callTimeoutMs, signal } = this.#options;
    for (const address of this.#order(preferred)) {
      if (signal.aborted) return undefined;
      try {
        const type = await transport.namespaceType(address, namespace, {
          signal,
          deadlineMs: callTimeoutMs,
        });
        return type ?? "unlisted";
      } catch { /* try the next address; if none answers, ask GetShardOwner anyway */ }
    }
    return undefined;
  }

  /** Every address once, `preferred` first. */
  #order(preferred: string | undefined): string[] {
    const { addresses } = this.#options;
    const start = preferred === undefined ? 0 : Math.max(0, addresses.indexOf(preferred));
    return addresses.map((_, i) => addresses[(start + i) % addresses.length]!);
  }
}

/** What the service answered for a shard: its primary owner and every owner, primary first. */
export interface AskedOwners {
  /** The primary owner. */
  readonly owner: Owner;
  /** Every owner, primary first (just the primary in a single-owner namespace). */
  readonly owners: readonly Owner[];
}
