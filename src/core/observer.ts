/**
 * What the service reports as it works, for metrics: a port with no
 * dependencies, implemented by `src/metrics/` (the only code that knows
 * Prometheus). Every method is optional and must be cheap and never throw.
 *
 * @module
 */

/** Outcome of one rebalance pass. */
export interface PassObservation {
  /** Shards moved from one live executor to another. */
  readonly moves: number;
  /** Whether an assignment change was committed. */
  readonly changed: boolean;
  /** Time the pass took, plan and commit, in ms. */
  readonly durationMs: number;
  /** Replicated namespaces (`replicas` above 1): what the owner-set planner achieved. */
  readonly placement?: PlacementObservation;
  /** Owner changes the committed change made, by reason (absent: none committed). */
  readonly reasons?: Readonly<Record<"placement" | "balance" | "drain" | "loss", number>>;
  /**
   * Warm handovers the committed change started, switched or cancelled, by
   * outcome (absent: none committed).
   */
  readonly handovers?: Readonly<
    Record<"prepared" | "warm" | "cold" | "cancelled" | "timedOut", number>
  >;
  /** Time each switched handover spent preparing, in ms (from the prepare's commit as this leader saw it). */
  readonly prepareMs?: readonly number[];
  /** Poison shards the pass quarantined (absent: none). */
  readonly quarantined?: number;
  /**
   * Key-range namespaces: what the committed change did to the slice map
   * (absent: another kind, or nothing committed), and the slices after it.
   */
  readonly ranges?: {
    readonly splits: number;
    readonly merges: number;
    readonly isolations: number;
    /** Share of the line (0 to 1) whose owner was replaced. */
    readonly keyspaceMoved: number;
    readonly slices: number;
    /** Operator edits of the slices the change made, by kind (absent: none). */
    readonly byHand?: SliceEditCounts;
  };
}

/** Edits of a key-range namespace's slices by hand that changed something, by kind. */
export type SliceEditCounts = Readonly<Record<"split" | "merge" | "pin" | "unpin", number>>;

/** What a replicated or shuffle-sharded namespace's placement achieved in a pass. */
export interface PlacementObservation {
  /** Owners per shard given: `min(replicas, eligible executors)`. */
  readonly replicas: number;
  /** Shards with fewer owners than asked for. */
  readonly shortShards: number;
  /** Shards whose owners are not spread over zones as far as the zones allow. */
  readonly zoneSpreadViolations: number;
  /** Shuffle: the largest number of executors two shards share. */
  readonly maxOverlap?: number;
  /** Shuffle: shards sharing more than `maxOverlap` allows with some other shard. */
  readonly shardsOverBound?: number;
}

/** Receives observations from the service. */
export interface ServiceObserver {
  /** A unary RPC finished with gRPC status `code` (a name such as "OK"). */
  rpc?(method: string, code: string, durationMs: number): void;
  /** The leader of `namespace` ran a pass. */
  pass?(namespace: string, pass: PassObservation): void;
  /** This instance applied an assignment change `latencyMs` after the leader committed it. */
  propagated?(namespace: string, latencyMs: number): void;
  /** An executor reported a newly assigned shard READY `latencyMs` after its assignment. */
  handedOver?(namespace: string, latencyMs: number): void;
  /** A `WatchNamespaceState` stream of `namespace` opened (`+1`) or ended (`-1`). */
  watchStream?(namespace: string, change: 1 | -1): void;
  /** A health probe of the main store finished: its round trip, and whether it succeeded. */
  storeProbe?(durationMs: number, ok: boolean): void;
}

/** Observes nothing. */
export const noopObserver: ServiceObserver = Object.freeze({});
