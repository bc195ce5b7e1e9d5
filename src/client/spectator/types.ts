/**
 * What a spectator knows: owners, the namespace's placement, changes to it,
 * and how current that knowledge is.
 *
 * @module
 */

/** The executor that owns a shard. */
export interface Owner {
  /** The executor's id within the namespace. */
  readonly executorId: string;
  /**
   * The metadata from the executor's last heartbeat, for example
   * `{ address: "10.0.0.7:8080" }`. A frozen object without a prototype, so
   * only keys the executor reported are present.
   */
  readonly metadata: Readonly<Record<string, string>>;
}

/** An executor of the namespace with the shards it owns. */
export interface ExecutorPlacement extends Owner {
  /**
   * Keys of the shards it owns, in the order the service listed them (in a
   * namespace with replicas above 1: the shards it is the primary of).
   */
  readonly shards: readonly string[];
  /**
   * Namespaces with replicas above 1: the shards it owns as a secondary owner,
   * with its rank in the owner set (1 = first after the primary).
   */
  readonly replicaShards?: readonly { readonly shard: string; readonly rank: number }[];
}

/**
 * One message of placement from the service, in the form the spectator
 * applies. Today every message is a complete snapshot; a later `"delta"`
 * kind (changes since the previous message) fits beside it, and only
 * `applyUpdate` (`placement.ts`) needs to learn it.
 */
export interface PlacementSnapshot {
  /** A complete picture: every executor of the namespace with its shards. */
  readonly kind: "snapshot";
  /** Every executor, including those that own nothing. */
  readonly executors: readonly ExecutorPlacement[];
  /** Key-range namespaces: the slice map (binary form; the slice ids are the shard keys). */
  readonly sliceMap?: Uint8Array;
}

/**
 * What changed since the previous update (services that support deltas send
 * them after the first snapshot). Applied in order: upsert `executors`
 * (metadata only), apply `owners`, then drop `removedExecutors`.
 */
export interface PlacementDelta {
  /** Marks a delta. */
  readonly kind: "delta";
  /** Executors added or whose metadata changed. */
  readonly executors: readonly Omit<ExecutorPlacement, "shards">[];
  /**
   * Shards whose owner changed; `owner` undefined: it has none now. `owners`
   * lists every owner (primary first) of a shard that has several.
   */
  readonly owners: readonly {
    readonly shard: string;
    readonly owner: string | undefined;
    readonly owners?: readonly string[];
  }[];
  /** Executors that are gone. */
  readonly removedExecutors: readonly string[];
  /** Key-range namespaces: the whole new slice map, when it changed (binary form). */
  readonly sliceMap?: Uint8Array;
}

/** Any update a transport can deliver: a whole picture or a delta. */
export type PlacementUpdate = PlacementSnapshot | PlacementDelta;

/** The whole namespace as of one version. Never mutated once published. */
export interface Placement {
  /**
   * Counts the changed placements this spectator has seen, from 1. It is
   * local to one spectator: two spectators may number the same placement
   * differently. A snapshot identical to the current placement (after a
   * reconnect, say) does not bump it.
   */
  readonly version: number;
  /** When this version was received (`clock.now()`, ms since the epoch). */
  readonly receivedAtMs: number;
  /** Executor id → the executor with its metadata and shards. */
  readonly executors: ReadonlyMap<string, ExecutorPlacement>;
  /** Shard key → owner, the primary of a replicated shard (the same objects as in `executors`). */
  readonly owners: ReadonlyMap<string, Owner>;
  /**
   * Shard key → every owner's executor id, primary first, for shards with
   * more than one owner (namespaces with replicas above 1); empty otherwise.
   * The map is replaced, never mutated, when a set changes.
   */
  readonly ownerSets: ReadonlyMap<string, readonly string[]>;
}

/** A shard that changed owner. */
export interface ShardMove {
  /** The shard's key. */
  readonly shard: string;
  /** The executor that owned it. */
  readonly from: string;
  /** The executor that owns it now. */
  readonly to: string;
}

/** What differs between two placements. Lists are in no particular order. */
export interface ChangeSet {
  /** Shards that had no owner and now have one. */
  readonly added: readonly string[];
  /** Shards that had an owner and now have none. */
  readonly removed: readonly string[];
  /** Shards whose owner changed. */
  readonly moved: readonly ShardMove[];
  /** Executors that appeared, disappeared, or whose metadata changed. */
  readonly executorsChanged: readonly string[];
}

/** One item of `Spectator.changes()`: the new placement and how it differs from the last one seen. */
export interface PlacementChange extends ChangeSet {
  /** The new placement's version. */
  readonly version: number;
  /** The version this change is relative to; 0 for the first item. */
  readonly previousVersion: number;
  /** The new placement. */
  readonly placement: Placement;
}

/** How current a spectator's answers are (see `Spectator.staleness()`). */
export interface Staleness {
  /** Whether a watch stream is open and has delivered its snapshot, so answers are current. */
  readonly connected: boolean;
  /** The service address of that stream; undefined while disconnected. */
  readonly address: string | undefined;
  /**
   * When the last snapshot arrived (ms since the epoch); undefined before the
   * first. While connected the service only sends a snapshot when something
   * changes, so an old value here does not mean stale answers: see `ageMs`.
   */
  readonly lastUpdateMs: number | undefined;
  /**
   * How old the answers may be, in ms: 0 while connected; while disconnected,
   * the time since the stream was lost (the map was current until then);
   * `Infinity` before the first snapshot.
   */
  readonly ageMs: number;
  /** When the last stream was lost (ms since the epoch); undefined while connected. */
  readonly disconnectedAtMs: number | undefined;
  /** Why the last stream or connection attempt failed; undefined once connected again. */
  readonly lastError: Error | undefined;
}

/**
 * The spectator's connection, as events (see `Spectator.events()`), so
 * callers need not poll `staleness()`:
 *
 * - `connected`: a watch stream to `address` delivered its snapshot; answers
 *   are current. `attempts`: failed attempts before it (0 for a first try).
 * - `disconnected`: the stream that was connected to `address` failed or
 *   ended; answers come from the last snapshot until `connected`.
 * - `reconnecting`: a stream or a connection attempt failed (`error`, `code`
 *   as in {@linkcode Staleness.lastError}); attempt number `attempt` of this
 *   outage goes to the next address in `delayMs`.
 * - `dropped`: the iterator's consumer fell behind and lost `count` events.
 */
export type SpectatorEvent =
  | { readonly type: "connected"; readonly address: string; readonly attempts: number }
  | {
    readonly type: "disconnected";
    readonly address: string;
    readonly error: Error;
    readonly code: string;
  }
  | {
    readonly type: "reconnecting";
    readonly address: string;
    readonly error: Error;
    readonly code: string;
    readonly attempt: number;
    readonly delayMs: number;
  }
  | { readonly type: "dropped"; readonly count: number };

/** Options of the spectator's waiting calls. */
export interface WaitOptions {
  /** Stops waiting; the call rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** Options of `Spectator.waitReady`. */
export interface WaitReadyOptions extends WaitOptions {
  /** Gives up after this many ms with a `SpectatorNotReadyError` (code `TIMEOUT`). @default {undefined} no limit */
  readonly timeoutMs?: number;
}

/** Options of `Spectator.address`. */
export interface AddressOptions extends WaitOptions {
  /** The metadata key holding the address. @default {"address"} */
  readonly metadataKey?: string;
}
