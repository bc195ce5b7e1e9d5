/**
 * The in-memory picture of one namespace, kept current from the store's change
 * feed. Routing answers and leader passes both read it, through the
 * {@linkcode NamespaceView} it implements; nothing here does I/O.
 *
 * @module
 */
import type { ExecutorDrain } from "../core/executor_drain.ts";
import type { Preparing } from "../core/assignment.ts";
import type { NamespaceEventBatch, NamespaceSnapshot } from "../store/store.ts";
import { type ChangeSummary, Picture } from "./_picture.ts";
import type { SliceMap } from "../core/slices.ts";
import { sliceMapFromText, slicePinsFromText } from "../core/slice_map_codec.ts";
import type { LivenessOptions } from "./executor_table.ts";
import type {
  ExecutorView,
  LeaderRecord,
  NamespaceTables,
  NamespaceView,
} from "./namespace_view.ts";
import type { ViewChange } from "./view_log.ts";

export type { ChangeSummary } from "./_picture.ts";
export type { LivenessOptions } from "./executor_table.ts";
export type {
  ExecutorView,
  LeaderRecord,
  NamespaceTables,
  NamespaceView,
} from "./namespace_view.ts";

const NO_PINS: ReadonlySet<number> = new Set();
/** How a namespace's picture judges liveness and keeps its owners. */
export interface NamespaceStateOptions extends LivenessOptions {
  /**
   * A fixed namespace's shard count: its owners are then kept by shard number
   * in typed arrays (state/fixed_owner_index.ts). Absent: in maps, any keys.
   */
  readonly shardNum?: number;
}

/**
 * The picture of a namespace. Its fields are private: readers use the
 * {@linkcode NamespaceView} it implements, and it changes only through
 * {@linkcode load}, {@linkcode apply} and {@linkcode forgiveOutage}, which keep
 * `inputsVersion` and the view log right.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceState } from "./namespace_state.ts";
 *
 * const state = new NamespaceState("ns", { heartbeatTtlMs: 2_000 });
 * state.apply({
 *   revision: 5,
 *   events: [
 *     { type: "heartbeat", executorId: "e1", record: { status: "ACTIVE", timestampMs: 1 } },
 *     { type: "assignment", seq: 1, delta: { assign: { e1: ["0"] }, unassign: [], remove: [] } },
 *   ],
 * }, 0);
 * assert.equal(state.ownerOf("0"), "e1");
 * assert.equal(state.fencingToken("0"), 5);
 * assert.ok(state.isAlive(state.executor("e1")!, 1_000));
 * ```
 */
export class NamespaceState implements NamespaceView {
  /** Namespace name. */
  readonly namespace: string;
  readonly #p: Picture;
  #sliceMap:
    | { readonly text: string; readonly map: SliceMap; readonly pins: ReadonlySet<number> }
    | undefined;

  /** An empty picture of `namespace`. */
  constructor(namespace: string, options: NamespaceStateOptions) {
    this.namespace = namespace;
    this.#p = new Picture(options, options.shardNum);
  }

  /** Store revision applied so far. */
  get revision(): number {
    return this.#p.revision;
  }

  /** Store revision of the last snapshot loaded (at start or after a resync). */
  get loadedRevision(): number {
    return this.#p.loadedRevision;
  }

  /** Last committed assignment change number. */
  get seq(): number {
    return this.#p.seq;
  }

  /** Grows with every applied change a rebalance pass reads (see {@linkcode NamespaceView}). */
  get inputsVersion(): number {
    return this.#p.inputsVersion;
  }

  /** Owner changes by the leaders' reasons (see {@linkcode NamespaceView}). */
  get moveCounts(): Readonly<Record<"placement" | "balance" | "drain" | "loss", number>> {
    return this.#p.moveCounts;
  }

  /** The leader's claim, if any. */
  get leader(): LeaderRecord | undefined {
    return this.#p.leader;
  }

  /** One executor. */
  executor(executorId: string): ExecutorView | undefined {
    return this.#p.executors.get(executorId);
  }

  /** Every known executor. */
  executors(): IterableIterator<ExecutorView> {
    return this.#p.executors.values();
  }

  /** Number of known executors. */
  get executorCount(): number {
    return this.#p.executors.size;
  }

  /** True when the executor's last heartbeat is recent enough at monotonic time `now`. */
  isAlive(executor: ExecutorView, now: number): boolean {
    return this.#p.executors.isAlive(executor, now);
  }

  /** When time alone next changes what a pass reads (see {@linkcode NamespaceView}). */
  livenessDeadline(now: number, retentionMs: number): number {
    return this.#p.executors.livenessDeadline(now, retentionMs);
  }

  /** True when the executor is out of the spectators' routing view (stale, holding nothing). */
  isHidden(executorId: string): boolean {
    return this.#p.hidden.has(executorId);
  }

  /** The owner (primary) of `shard`. */
  ownerOf(shard: string): string | undefined {
    return this.#p.assignment.index.owners.get(shard);
  }

  /** The owners of `shard`, primary first (empty when it has none). */
  ownersOf(shard: string): readonly string[] {
    return this.#p.assignment.index.ownersOf(shard);
  }

  /** Shards owned by `executorId` (alone or as one of several owners). */
  shardsOf(executorId: string): ReadonlySet<string> {
    return this.#p.assignment.index.shardsOf(executorId);
  }

  /** The same shards in `compareShardKeys` order. */
  sortedShardsOf(executorId: string): string[] {
    return this.#p.assignment.index.sortedShardsOf(executorId);
  }

  /** Every owned shard with its owner (primary). */
  owned(): IterableIterator<[string, string]> {
    return this.#p.assignment.index.owners.entries();
  }

  /** Number of owned shards. */
  get ownedCount(): number {
    return this.#p.assignment.index.owners.size;
  }

  /** True when some shard has more than one owner. */
  get hasOwnerSets(): boolean {
    return this.#p.assignment.index.ownerSets.size > 0;
  }

  /** The fencing token of `shard`'s owners. */
  fencingToken(shard: string): number | undefined {
    return this.#p.assignment.index.assignedRevisions.get(shard);
  }

  /** When `shard` got its current owner (ms since epoch), if known. */
  assignedAtMs(shard: string): number | undefined {
    return this.#p.assignment.assignedAtMs(shard);
  }

  /**
   * A number that changes whenever the shards of `executorId` or their
   * fencing tokens change, and never comes back: answers built from
   * {@linkcode shardsOf} may be cached under it.
   */
  shardSetStamp(executorId: string): number {
    return this.#p.assignment.index.stampOf(executorId);
  }

  /** The revision at which `shard`'s owner was asked to stop it. */
  releasedAt(shard: string): number | undefined {
    return this.#p.assignment.releasing.get(shard);
  }

  /** `shard`'s warm handover in flight, if any. */
  preparingOf(shard: string): Preparing | undefined {
    return this.#p.prepares.byShard.get(shard);
  }

  /** When `shard`'s prepare was committed, when known. */
  preparingAtMs(shard: string): number | undefined {
    return this.#p.prepares.atMs.get(shard);
  }

  /** The shards `executorId` is preparing. */
  preparingShardsOf(executorId: string): ReadonlySet<string> {
    return this.#p.prepares.shardsOf(executorId);
  }

  /** True when an operator drained `shard`. */
  isDrained(shard: string): boolean {
    return this.#p.drained.has(shard);
  }

  /** Drained shards. */
  drained(): IterableIterator<string> {
    return this.#p.drained.values();
  }

  /** Number of drained shards. */
  get drainedCount(): number {
    return this.#p.drained.size;
  }

  /** The reason `shard` was drained with (`quarantined`), if drained with one. */
  drainReasonOf(shard: string): string | undefined {
    return this.#p.drainReasons.get(shard);
  }

  /** Drained shards that carry a reason, with it. */
  get drainReasons(): ReadonlyMap<string, string> {
    return this.#p.drainReasons;
  }

  /** One executor drain, by id. */
  executorDrain(id: string): ExecutorDrain | undefined {
    return this.#p.executors.drain(id);
  }

  /** Every executor drain. */
  executorDrains(): IterableIterator<ExecutorDrain> {
    return this.#p.executors.drains();
  }

  /** Number of executor drains. */
  get executorDrainCount(): number {
    return this.#p.executors.drainCount;
  }

  /** The executor drains that apply to an executor with this id and metadata. */
  drainsOf(executorId: string, metadata: Readonly<Record<string, string>>): ExecutorDrain[] {
    return this.#p.executors.drainsOf(executorId, metadata);
  }

  /** True when an operator drain applies to `executor`. */
  isExecutorDrained(executor: ExecutorView): boolean {
    return this.#p.executors.isDrained(executor);
  }

  /** Store revision of the request for `shard`, if outstanding. */
  requestRevision(shard: string): number | undefined {
    return this.#p.requested.get(shard);
  }

  /** Number of outstanding shard requests. */
  get requestCount(): number {
    return this.#p.requested.size;
  }

  /** The changes watchers see after `revision`, or undefined when no longer known. */
  changesSince(revision: number): readonly ViewChange[] | undefined {
    return this.#p.viewLog.since(revision);
  }

  /** The collections, read-only, for planners and compaction. */
  tables(): NamespaceTables {
    const { index, times, releasing } = this.#p.assignment;
    return {
      owners: index.owners,
      ownerSets: index.ownerSets,
      byExecutor: index.byExecutor,
      assignedRevisions: index.assignedRevisions,
      assignmentTimes: times,
      releasing,
      preparing: this.#p.prepares.byShard,
      preparingSince: this.#p.prepares.sinceMs,
      preparingBy: this.#p.prepares.byExecutor,
      drained: this.#p.drained,
      requested: this.#p.requested,
      hidden: this.#p.hidden,
      movedAt: this.#p.movedAt,
      compact: index.compact(),
      slices: this.#p.slices,
    };
  }

  /** A key-range namespace's slice map, decoded once per change of it; undefined: none. */
  sliceMap(): SliceMap | undefined {
    return this.#decodedSlices()?.map;
  }

  /** A key-range namespace's slices pinned by an operator (ids; empty when none). */
  slicePins(): ReadonlySet<number> {
    return this.#decodedSlices()?.pins ?? NO_PINS;
  }

  #decodedSlices() {
    const text = this.#p.slices;
    if (text === undefined) return undefined;
    if (this.#sliceMap?.text !== text) {
      this.#sliceMap = { text, map: sliceMapFromText(text), pins: slicePinsFromText(text) };
    }
    return this.#sliceMap;
  }

  /**
   * After the store was unreachable from `sinceMs` until `now` (monotonic): no
   * heartbeat could be recorded meanwhile, so executors that were alive when it
   * began count as seen at `now`, as a fresh load would take them. Never makes
   * an executor look alive that was stale before. Returns how many it renewed.
   */
  forgiveOutage(sinceMs: number, now: number): number {
    const renewed = this.#p.executors.forgiveOutage(sinceMs, now);
    if (renewed > 0) this.#p.inputsVersion++;
    return renewed;
  }

  /**
   * Replaces everything with `snapshot`. Executors are taken as seen at `now`
   * (a new reader cannot know better) unless their last heartbeat is far older
   * than the TTL by the wall clock.
   */
  load(snapshot: NamespaceSnapshot, now: number, wallNow: number): void {
    this.#p.load(snapshot, now, wallNow);
  }

  /**
   * Applies one batch of changes seen at monotonic time `now`; with `touched`,
   * adds to it the executors whose assignment (shards, fencing tokens,
   * releases) the batch changes, at a cost proportional to the batch.
   */
  apply(batch: NamespaceEventBatch, now: number, touched?: Set<string>): ChangeSummary {
    return this.#p.apply(batch, now, touched);
  }
}
