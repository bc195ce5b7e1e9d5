/**
 * What a rebalance pass reads, as one plain value built from the namespace's
 * view at one monotonic instant: executors with their liveness and drains
 * already judged, and the picture's collections (read-only, not copied).
 * Planners take it and nothing else, so they stay pure.
 *
 * @module
 */
import type { SliceEdit } from "./slice_edits.ts";
import type { ExecutorStatus, ShardReports } from "../core/types.ts";
import type { NamespaceView } from "../state/namespace_view.ts";
import type { CompactOwners } from "../state/owner_index.ts";
import type { Preparing } from "../core/assignment.ts";
import type { SliceMap } from "../core/slices.ts";

/** An executor as a pass sees it. */
export interface PlanExecutor {
  /** Executor id. */
  readonly executorId: string;
  /** Reported status. */
  readonly status: ExecutorStatus;
  /** Heard from within the heartbeat TTL at the pass's instant. */
  readonly alive: boolean;
  /** An operator drain applies to it. */
  readonly operatorDrained: boolean;
  /** Monotonic time this instance last saw its heartbeat recorded. */
  readonly seenAtMs: number;
  /** Store revision of its last recorded heartbeat. */
  readonly heartbeatRevision: number;
  /** Monotonic time since which it has been alive and ACTIVE (joined the eligible set); absent: long ago. */
  readonly activeSinceMs?: number;
  /** Exclusive namespaces: revision of the latest answer it had acted on. */
  readonly appliedRevision: number;
  /** It understands warm handover: planned moves to it are prepared first. */
  readonly warmHandover?: boolean;
  /** Metadata (zones, selectors). */
  readonly metadata: Readonly<Record<string, string>>;
  /** Latest shard reports (loads, DONE). */
  readonly reports: ShardReports;
}

/** Everything one pass reads. */
export interface PlanInput {
  /** The pass's monotonic instant. */
  readonly now: number;
  /**
   * Number of the last committed assignment change; 0 or absent: none, the
   * namespace never had an owner (the cold-start wait, `churn_rules.ts`).
   */
  readonly assignmentSeq?: number;
  /** Every known executor by id. */
  readonly executors: ReadonlyMap<string, PlanExecutor>;
  /** Key-range namespaces: the slice map (its slice ids are the shard keys); absent: none yet. */
  readonly slices?: SliceMap;
  /** Key-range namespaces: the slices an operator pinned; absent: none. */
  readonly slicePins?: ReadonlySet<number>;
  /** Key-range namespaces: operator edits of the slices not yet committed, in the order asked. */
  readonly sliceEdits?: readonly SliceEdit[];
  /** Shard → owner (the primary of a shard with several owners). */
  readonly owners: ReadonlyMap<string, string>;
  /** Shard → full owner set of the shards with more than one owner. */
  readonly ownerSets: ReadonlyMap<string, readonly string[]>;
  /** Owner → its shards. */
  readonly byExecutor: ReadonlyMap<string, ReadonlySet<string>>;
  /** Releasing shards (exclusive handover) → revision of their release. */
  readonly releasing: ReadonlyMap<string, number>;
  /** Warm handovers in flight: shard → its incoming owner and the revision of the prepare. */
  readonly preparing: ReadonlyMap<string, Preparing>;
  /** Warm handovers in flight: shard → monotonic time the prepare was first seen. */
  readonly preparingSince: ReadonlyMap<string, number>;
  /** Warm handovers in flight: incoming owner → the shards it prepares. */
  readonly preparingBy: ReadonlyMap<string, ReadonlySet<string>>;
  /** Drained shards. */
  readonly drained: ReadonlySet<string>;
  /** Ephemeral shards asked for → revision of the request. */
  readonly requested: ReadonlyMap<string, number>;
  /** Executors out of the routing view (stale, holding nothing) → revision judged. */
  readonly hidden: ReadonlyMap<string, number>;
  /** Cells namespaces: operator moves not yet committed, tenant → target cell. */
  readonly cellMoves: ReadonlyMap<string, string>;
  /** Shard → monotonic time of its last move between executors (the shard cooldown); absent: none known. */
  readonly movedAt?: ReadonlyMap<string, number>;
  /** The term's previous pass used at least half its balancing budget: balancing goes on past the hysteresis. */
  readonly balancingUnfinished?: boolean;
  /**
   * The mass-loss brake holds (leader/process/mass_loss_brake.ts): no balancing
   * moves, and each executor takes at most its capacity, or its fair share of
   * the `executorsBefore` executors serving before the loss; absent: released.
   */
  readonly brake?: { readonly executorsBefore: number };
  /**
   * Poison shards: shard → the executors that failed with it recently (the
   * leader's detector, plan/poison_detector.ts); a pass does not place a
   * shard on one of them while another executor is eligible. Absent: none.
   */
  readonly failedWith?: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Shard → the executor that restarted with it (the leader's detector): a
   * pass moves the shard off that executor when another is eligible, as
   * after failed starts (start_failover.ts). Absent: none.
   */
  readonly restartedOwners?: ReadonlyMap<string, string>;
  /**
   * A fixed namespace's owners by shard number (the same owners as `owners`,
   * read without a lookup by key); absent for other namespaces.
   */
  readonly compact?: CompactOwners;
}

const NONE: ReadonlySet<string> = new Set();
const NO_MOVES: ReadonlyMap<string, string> = new Map();

/** The shards `executorId` owns in `input`. */
export function shardsOf(input: PlanInput, executorId: string): ReadonlySet<string> {
  return input.byExecutor.get(executorId) ?? NONE;
}

/**
 * The input of a pass over `view` at monotonic time `now`: O(executors) to
 * build; the shard collections are the view's own, read-only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceState } from "../state/namespace_state.ts";
 * import { planInput } from "./plan_input.ts";
 *
 * const state = new NamespaceState("ns", { heartbeatTtlMs: 2_000 });
 * state.apply({
 *   revision: 3,
 *   events: [{ type: "heartbeat", executorId: "e1", record: { status: "ACTIVE", timestampMs: 1 } }],
 * }, 0);
 * const input = planInput(state, 1_000);
 * assert.equal(input.executors.get("e1")?.alive, true);
 * assert.equal(planInput(state, 5_000).executors.get("e1")?.alive, false);
 * ```
 */
export function planInput(
  view: NamespaceView,
  now: number,
  options: {
    readonly cellMoves?: ReadonlyMap<string, string>;
    readonly sliceEdits?: readonly SliceEdit[];
    readonly balancingUnfinished?: boolean;
    readonly brake?: { readonly executorsBefore: number };
    readonly failedWith?: ReadonlyMap<string, ReadonlySet<string>>;
    readonly restartedOwners?: ReadonlyMap<string, string>;
  } = {},
): PlanInput {
  const executors = new Map<string, PlanExecutor>();
  for (const e of view.executors()) {
    executors.set(e.executorId, {
      executorId: e.executorId,
      status: e.status,
      alive: view.isAlive(e, now),
      operatorDrained: view.isExecutorDrained(e),
      seenAtMs: e.seenAtMs,
      heartbeatRevision: e.heartbeatRevision,
      ...(e.activeSinceMs === undefined ? {} : { activeSinceMs: e.activeSinceMs }),
      appliedRevision: e.appliedRevision ?? 0,
      ...(e.warmHandover ? { warmHandover: true } : {}),
      metadata: e.metadata,
      reports: e.reports,
    });
  }
  const tables = view.tables();
  const sliceMap = view.sliceMap();
  return {
    now,
    assignmentSeq: view.seq,
    executors,
    owners: tables.owners,
    ownerSets: tables.ownerSets,
    byExecutor: tables.byExecutor,
    releasing: tables.releasing,
    preparing: tables.preparing,
    preparingSince: tables.preparingSince,
    preparingBy: tables.preparingBy,
    drained: tables.drained,
    requested: tables.requested,
    hidden: tables.hidden,
    cellMoves: options.cellMoves ?? NO_MOVES,
    movedAt: tables.movedAt,
    ...(options.balancingUnfinished ? { balancingUnfinished: true } : {}),
    ...(options.brake ? { brake: options.brake } : {}),
    ...(options.failedWith && options.failedWith.size > 0
      ? { failedWith: options.failedWith }
      : {}),
    ...(options.restartedOwners && options.restartedOwners.size > 0
      ? { restartedOwners: options.restartedOwners }
      : {}),
    ...(tables.compact ? { compact: tables.compact } : {}),
    ...(sliceMap ? { slices: sliceMap } : {}),
    ...(sliceMap && view.slicePins().size > 0 ? { slicePins: view.slicePins() } : {}),
    ...(options.sliceEdits && options.sliceEdits.length > 0
      ? { sliceEdits: options.sliceEdits }
      : {}),
  };
}
