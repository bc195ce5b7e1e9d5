/**
 * The spectator: a local, always-answering copy of a namespace's placement,
 * kept current by a watch stream.
 *
 * @module
 */
import { type KeyRoutes, routesOf } from "./key_routes.ts";
import { deferred } from "../common/deferred.ts";
import type { SubscribeOptions } from "../common/event_hub.ts";
import { SpectatorObserver } from "./_observer.ts";
import { abortable } from "./_abortable.ts";
import { Connection } from "./_connection.ts";
import { ChangeFeed } from "./change_feed.ts";
import { MissingMetadataError, SpectatorClosedError, SpectatorNotReadyError } from "./errors.ts";
import type { ShardManagerError } from "../common/errors.ts";
import type { StartOptions } from "../common/connection_options.ts";
import { type ResolvedSpectatorOptions, resolveOptions, type SpectatorOptions } from "./options.ts";
import { grpcTransportFor } from "./grpc_transport.ts";
import { type AskedOwners, OwnerFallback } from "./owner_fallback.ts";
import { tryOwners, type TryOwnersOptions } from "./try_owners.ts";
import { nextPlacement } from "./next_placement.ts";
import { ownersIn } from "./placement.ts";
import type { SpectatorTransport } from "./transport.ts";
import type {
  AddressOptions,
  Owner,
  Placement,
  PlacementChange,
  PlacementUpdate,
  SpectatorEvent,
  Staleness,
  WaitOptions,
  WaitReadyOptions,
} from "./types.ts";
import { runWatchLoop } from "./watch_loop.ts";

/** Answers from the service's `GetShardOwner` kept at most; past this the cache starts over. */
const MAX_ASKED = 100_000;

/**
 * Who owns which shard of one namespace, answered from memory, kept current
 * by a `WatchNamespaceState` stream on one of `options.addresses`
 * (reconnecting to the next address, with exponential backoff and full
 * jitter, whenever the stream fails or ends). While the service is
 * unreachable it keeps answering from the last snapshot; `staleness()` says
 * how old that is. Close it when done.
 *
 * @example Route by shard key
 * ```ts ignore
 * import { Spectator } from "./spectator.ts";
 *
 * await using spectator = await new Spectator({
 *   addresses: ["127.0.0.1:7943", "127.0.0.1:7944"],
 *   namespace: "orders",
 * }).start({ timeoutMs: 10_000 }); // rejects at once on an unknown namespace
 * const owner = spectator.ownerOf("42"); // synchronous, from memory
 * console.log(owner?.executorId, spectator.addressOf("42"), spectator.staleness().ageMs);
 * ```
 */
export class Spectator implements AsyncDisposable {
  /** The namespace watched. */
  readonly namespace: string;
  /**
   * Resolves when the first snapshot has arrived. Rejects with a
   * `SpectatorClosedError` if the spectator is closed first, and at once with
   * the failure when the service refuses the watch for good before that (an
   * unknown namespace, a refused token, not a gRPC endpoint: a
   * `ShardManagerError` whose `retryable` is false); the spectator then
   * stops watching. While the service is unreachable it stays pending (see
   * {@linkcode Spectator.waitReady} for a bounded wait).
   */
  readonly ready: Promise<void>;

  readonly #options: ResolvedSpectatorOptions;
  readonly #transport: SpectatorTransport;
  readonly #feed = new ChangeFeed();
  readonly #readiness = deferred<void>();
  readonly #stop = new AbortController();
  readonly #fallback: OwnerFallback;
  #loop: Promise<void> | undefined;
  readonly #obs: SpectatorObserver;
  #owners: ReadonlyMap<string, Owner> | undefined;
  #asked = new Map<string, AskedOwners>();
  #placement: Placement | undefined;
  /** Key-range namespaces: the slices, to route an application key to its slice's shard key. */
  #routes: KeyRoutes | undefined;
  readonly #connection = new Connection();
  /** The permanent failure that ended the watch before the first snapshot. */
  #failed: ShardManagerError | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Checks `options` (throwing an `InvalidOptionsError` that names the
   * option); watching begins with {@linkcode Spectator.start} (or the first
   * `waitReady`, `owner`, `address`, ...).
   */
  constructor(options: SpectatorOptions) {
    const resolved = resolveOptions(options);
    const transport = options.transport ?? grpcTransportFor(options, resolved);
    this.namespace = resolved.namespace;
    this.#obs = new SpectatorObserver({
      ...options,
      namespace: resolved.namespace,
      clock: resolved.clock,
      ageMs: () => this.staleness().ageMs,
    });
    this.#options = resolved;
    this.#transport = transport;
    this.ready = this.#readiness.promise;
    this.ready.catch(() => {}); // closing before the first snapshot is not an unhandled error
    this.#fallback = new OwnerFallback({ ...resolved, transport, signal: this.#stop.signal });
  }

  /**
   * Begins watching and resolves with `this` once the first snapshot has
   * arrived. Rejects as {@linkcode Spectator.waitReady} does (at once on a
   * permanent failure such as an unknown namespace; code `TIMEOUT` after
   * `timeoutMs`), and then closes the spectator.
   */
  async start(options: StartOptions = {}): Promise<this> {
    try {
      await this.waitReady(options);
      return this;
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /** Starts the watch loop once. */
  #watch(): void {
    if (this.#loop !== undefined || this.#closing !== undefined) return;
    this.#loop = runWatchLoop({ ...this.#options, transport: this.#transport }, {
      update: (update, address, first) => this.#apply(update, address, first),
      lost: (address, error, retryInMs) => {
        this.#lost(error);
        this.#obs.lost(address, error, retryInMs);
      },
    }, this.#stop.signal).finally(() => {
      if (this.#failed !== undefined) this.#transport.close();
    });
  }

  /**
   * The owner of `shardKey` from memory, or undefined when it has none (or,
   * in an ephemeral namespace, the spectator has not heard of it: use
   * {@linkcode Spectator.owner}). Throws `SpectatorNotReadyError` before the
   * first snapshot and `SpectatorClosedError` after `close()`. Allocates
   * nothing.
   *
   * In a key-range namespace (`type: range`) `shardKey` is any application
   * key: it is hashed and routed to the slice that holds it, by a binary
   * search of the slice map the watch stream carries. Here and in every other
   * lookup of this class.
   */
  ownerOf(shardKey: string): Owner | undefined {
    const owners = this.#owners;
    if (owners === undefined) throw this.#unavailable();
    const routes = this.#routes;
    if (routes !== undefined) {
      const i = routes.indexOf(shardKey);
      if (i < 0) return undefined;
      return routes.ownerAt(i, owners) ?? this.#asked.get(shardKey)?.owner;
    }
    return owners.get(shardKey) ?? this.#asked.get(shardKey)?.owner;
  }

  /**
   * Every owner of `shardKey` from memory, primary first: several in a
   * namespace with `replicas` above 1, else the one owner; empty when it has
   * none (or, in an ephemeral namespace, the spectator has not heard of it:
   * use {@linkcode Spectator.owners}). Throws like {@linkcode Spectator.ownerOf}.
   */
  ownersOf(shardKey: string): readonly Owner[] {
    const placement = this.#placement;
    if (placement === undefined || this.#owners === undefined) throw this.#unavailable();
    const shard = this.#shardOf(shardKey);
    const owners = shard === undefined ? [] : ownersIn(placement, shard);
    return owners.length > 0 ? owners : this.#asked.get(shardKey)?.owners ?? [];
  }

  /**
   * {@linkcode Spectator.ownersOf}, waiting for the first snapshot if need be
   * and asking the service on a miss in an ephemeral namespace (as
   * {@linkcode Spectator.owner} does).
   */
  async owners(shardKey: string, options: WaitOptions = {}): Promise<readonly Owner[]> {
    const owner = await this.owner(shardKey, options);
    if (owner === undefined) return [];
    const owners = this.ownersOf(shardKey);
    return owners.length > 0 ? owners : [owner];
  }

  /**
   * Calls `attempt` with each owner of `shardKey` in turn, primary first,
   * until one succeeds, and returns its result: clients of a replicated
   * namespace tolerate the failure of some owners. Rejects with an
   * `AllOwnersFailedError` (holding every error) when all fail, or at the
   * first error `options.isRetryable` refuses; with what
   * {@linkcode Spectator.owners} rejects; or with the signal's reason.
   */
  async tryOwners<T>(
    shardKey: string,
    attempt: (owner: Owner, index: number, signal: AbortSignal | undefined) => Promise<T>,
    options: TryOwnersOptions = {},
  ): Promise<T> {
    const owners = await this.owners(shardKey, options);
    return await tryOwners(this.namespace, shardKey, owners, attempt, options);
  }

  /**
   * The owner of `shardKey`, waiting for the first snapshot if need be. On a
   * miss in an ephemeral namespace it asks the service (`GetShardOwner`,
   * which creates the shard; concurrent asks share one call) and keeps the
   * answer until the next snapshot. On a miss in a fixed namespace it
   * resolves undefined. Rejects with `ShardOwnerLookupError` when the service
   * cannot answer, `SpectatorClosedError` after `close()`.
   */
  async owner(shardKey: string, options: WaitOptions = {}): Promise<Owner | undefined> {
    if (this.#owners === undefined) await this.waitReady(options);
    const known = this.ownerOf(shardKey);
    if (known !== undefined) return known;
    const { signal } = options;
    const address = this.#connection.address;
    if (!await abortable(this.#fallback.asksOnMiss(address), signal)) return undefined;
    const asked = await abortable(this.#fallback.lookup(shardKey, address), signal);
    const now = this.ownerOf(shardKey); // throws if closed meanwhile
    if (now !== undefined) return now;
    if (this.#asked.size >= MAX_ASKED) this.#asked = new Map();
    this.#asked.set(shardKey, asked);
    return asked.owner;
  }

  /**
   * The routing address of `shardKey`'s owner: its metadata under
   * `metadataKey`. Undefined when the shard has no owner (as
   * {@linkcode Spectator.ownerOf}); throws `MissingMetadataError` when the
   * owner did not report that key, and what `ownerOf` throws.
   */
  addressOf(shardKey: string, metadataKey = "address"): string | undefined {
    const owner = this.ownerOf(shardKey);
    return owner === undefined ? undefined : this.#metadata(shardKey, owner, metadataKey);
  }

  /** {@linkcode Spectator.addressOf} after {@linkcode Spectator.owner}: waits, and asks on a miss. */
  async address(shardKey: string, options: AddressOptions = {}): Promise<string | undefined> {
    const owner = await this.owner(shardKey, options);
    return owner === undefined
      ? undefined
      : this.#metadata(shardKey, owner, options.metadataKey ?? "address");
  }

  /**
   * Resolves once the first snapshot has arrived (at once if it has). Rejects
   * with the signal's reason, with a `SpectatorNotReadyError` (code
   * `TIMEOUT`, its `cause` the last connection error) after `timeoutMs`, with
   * a `SpectatorClosedError`, or at once with a permanent failure (see
   * {@linkcode Spectator.ready}).
   */
  async waitReady(options: WaitReadyOptions = {}): Promise<void> {
    this.#watch();
    if (this.#owners !== undefined) return;
    if (this.#failed !== undefined) throw this.#failed;
    if (this.#closing !== undefined) throw new SpectatorClosedError(this.namespace);
    const { timeoutMs } = options;
    if (timeoutMs === undefined) return await abortable(this.ready, options.signal);
    const { clock } = this.#options;
    let timer: unknown;
    const late = new Promise<never>((_, reject) => {
      timer = clock.setTimeout(() => {
        const detail = `no snapshot within ${timeoutMs} ms`;
        reject(
          new SpectatorNotReadyError(this.namespace, {
            detail,
            cause: this.#connection.lastError,
            code: "TIMEOUT",
          }),
        );
      }, timeoutMs);
    });
    try {
      await Promise.race([abortable(this.ready, options.signal), late]);
    } finally {
      clock.clearTimeout(timer);
    }
  }

  /** The current placement (kept after `close()`), or undefined before the first snapshot. */
  get placement(): Placement | undefined {
    return this.#placement;
  }

  /** How current the answers are; see {@linkcode Staleness}. */
  staleness(): Staleness {
    return this.#connection.staleness(this.#placement !== undefined, this.#options.clock.now());
  }

  /**
   * Placement changes, latest-value: the first item is the current placement
   * (every shard in `added`) once there is one; then one item per change.
   * Nothing is buffered: a reader that falls behind skips versions and gets
   * one item diffed from the placement it saw last, so a slow reader costs at
   * most one retained placement. Ends on `close()` or when `signal` aborts.
   */
  changes(options: WaitOptions = {}): AsyncIterableIterator<PlacementChange> {
    this.#watch();
    return this.#feed.subscribe(options.signal);
  }

  /**
   * Connection events from now on (see {@linkcode SpectatorEvent}): each
   * iterator buffers 256 events and drops the oldest when its consumer falls
   * behind. Iterators end on `close()` or when `signal` aborts.
   */
  events(options: SubscribeOptions = {}): AsyncIterableIterator<SpectatorEvent> {
    return this.#obs.events(options);
  }

  /** Stops watching: cancels the stream, timers and calls, ends `changes()`, closes connections. */
  close(): Promise<void> {
    return this.#closing ??= (async () => {
      this.#connection.lost(undefined, this.#options.clock.now());
      this.#owners = undefined;
      const closed = new SpectatorClosedError(this.namespace);
      this.#readiness.reject(closed);
      this.#stop.abort(closed);
      this.#feed.close();
      await this.#loop;
      this.#transport.close();
      this.#obs.closed();
    })();
  }

  /** {@linkcode Spectator.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** The one place where updates reach the map. */
  #apply(update: PlacementUpdate, address: string, first: boolean): void {
    if (this.#closing !== undefined) return;
    const now = this.#options.clock.now();
    const previous = this.#placement;
    const next = nextPlacement(previous, update, first, now);
    // Key ranges: the slices change with the owners of their ids, in the same update.
    if (update.kind === "snapshot" || update.sliceMap !== undefined) {
      this.#routes = routesOf(update.sliceMap, this.#routes);
    }
    if (next.changed) {
      this.#placement = next.placement;
      this.#owners = next.placement.owners;
      this.#feed.publish(next.placement, next.change);
    }
    if (this.#asked.size > 0) this.#asked = new Map();
    if (this.#connection.updated(address, first, now)) this.#obs.connected(address);
    if (previous === undefined) {
      this.#readiness.resolve();
      // Learn the namespace's type while the service is reachable, so misses
      // in a fixed namespace answer undefined even once it is not.
      void this.#fallback.asksOnMiss(address);
    }
  }

  /**
   * A stream was lost, with its failure classified by the watch loop. Before
   * the first snapshot a permanent failure ends the spectator's wait: no
   * retry can succeed.
   */
  #lost(error: ShardManagerError): void {
    this.#connection.lost(error, this.#options.clock.now());
    if (this.#placement === undefined && !error.retryable && this.#closing === undefined) {
      this.#failed = error;
      this.#readiness.reject(error);
      this.#stop.abort(error);
    }
  }

  /**
   * The shard key that answers for `key`: in a key-range namespace the key of
   * the slice holding it (undefined in a gap), else `key` itself.
   */
  #shardOf(key: string): string | undefined {
    const routes = this.#routes;
    return routes === undefined ? key : routes.sliceKeyOf(key);
  }

  #unavailable(): Error {
    return this.#closing !== undefined
      ? new SpectatorClosedError(this.namespace)
      : new SpectatorNotReadyError(this.namespace, { cause: this.#connection.lastError });
  }

  #metadata(shardKey: string, owner: Owner, metadataKey: string): string {
    const value = owner.metadata[metadataKey];
    if (value === undefined) {
      throw new MissingMetadataError(this.namespace, shardKey, owner, metadataKey);
    }
    return value;
  }
}
