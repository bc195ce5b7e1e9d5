/**
 * What a rebalance pass decided, as plain data: the change to commit and the
 * clean-ups that go with it. Nothing here knows how a store writes it.
 *
 * @module
 */
import type { AssignmentDelta } from "../core/types.ts";
import type { MoveCounts } from "./churn_rules.ts";
import type { PlacementReport } from "./placement_report.ts";
import type { SliceEditCounts } from "../core/observer.ts";
import type { HandoverCounts } from "./warm_handovers.ts";

/** An executor as the pass saw it: a clean-up or commit holds only while its record is unchanged. */
export interface ExecutorAt {
  /** Executor id. */
  readonly executorId: string;
  /** Store revision of the heartbeat record the pass saw. */
  readonly heartbeatRevision: number;
}

/** A shard request as the pass saw it. */
export interface RequestAt {
  /** The requested shard. */
  readonly shardKey: string;
  /** Store revision of the request. */
  readonly revision: number;
}

/** The outcome of one pass. */
export interface Plan {
  /** The assignment change (empty when nothing changes). */
  readonly delta: AssignmentDelta;
  /** Shards that changed owner from one live executor to another. */
  readonly moves: number;
  /** Owner changes (and, in an exclusive namespace, releases that start one) by reason. */
  readonly reasons?: MoveCounts;
  /** Balancing used at least half its move budget: the next pass goes on past the hysteresis. */
  readonly balancingUnfinished?: boolean;
  /** Executors to forget (stale past retention, owning nothing after the change). */
  readonly forget: readonly ExecutorAt[];
  /** Shard requests that are answered (assigned, drained or removed). */
  readonly answered: readonly RequestAt[];
  /** Executors whose expired lease lets their shards move: the commit requires them unchanged. */
  readonly reliedOn: readonly ExecutorAt[];
  /** Monotonic time at which a waiting handover may proceed by lease expiry, if any. */
  readonly wakeAtMs?: number;
  /** Warm handovers this pass started, switched or cancelled, by outcome; absent: none. */
  readonly handovers?: HandoverCounts;
  /** Time each handover this pass switched spent preparing (monotonic ms). */
  readonly prepareMs?: readonly number[];
  /** Replicated namespaces: what the owner-set planner achieved. */
  readonly placement?: PlacementReport;
  /**
   * Set when the pass placed nothing because a first deploy waits for its
   * executors to stop joining: when the wait ends (monotonic, see `churn_rules.ts`).
   */
  readonly coldStartUntilMs?: number;
  /** Shards left unowned because no eligible executor had capacity for them; absent: none. */
  readonly unplaced?: number;
  /** Key-range namespaces: what the pass did to the slice map. */
  readonly ranges?: RangePassReport;
}

/** What a ranges pass did to the slice map, for the leader's log and metrics. */
export interface RangePassReport {
  /** Slices split. */
  readonly splits: number;
  /** Slices merged into a neighbour. */
  readonly merges: number;
  /** Hot keys given a slice of their own. */
  readonly isolations: number;
  /** Share of the line (0 to 1) whose owner was replaced. */
  readonly keyspaceMoved: number;
  /** Slices after the pass. */
  readonly slices: number;
  /** Operator edits (`smctl slice split|merge|pin|unpin`) the pass made, by kind; absent: none. */
  readonly byHand?: SliceEditCounts;
}
