/**
 * The in-memory picture of one namespace, kept current from the store's change
 * feed. Routing answers and leader passes both read it, through the
 * {@linkcode NamespaceView} it implements; nothing here does I/O.
 *
 * @module
 */
import type { ExecutorDrain } from "../core/executor_drain.ts";
import type { NamespaceEvent, NamespaceEventBatch, NamespaceSnapshot } from "../store/store.ts";
import { AssignmentTable } from "./assignment_table.ts";
import { type ExecutorRecord, ExecutorTable, type LivenessOptions } from "./executor_table.ts";
import type {
  ExecutorView,
  LeaderRecord,
  NamespaceTables,
  NamespaceView,
} from "./namespace_view.ts";
import { type ViewChange, ViewLog } from "./view_log.ts";

export type { LivenessOptions } from "./executor_table.ts";
export type {
  ExecutorView,
  LeaderRecord,
  NamespaceTables,
  NamespaceView,
} from "./namespace_view.ts";

/** What applying a batch changed. */
export interface ChangeSummary {
  /** Something a rebalance pass should react to. */
  readonly rebalance: boolean;
  /** Something a watcher of the namespace sees (owners, executors, metadata). */
  readonly view: boolean;
  /** The store asked for a reload. */
  readonly resync: boolean;
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
  #revision = 0;
  #seq = 0;
  #inputsVersion = 0;
  readonly #executors: ExecutorTable;
  readonly #assignment = new AssignmentTable();
  readonly #drained = new Set<string>();
  readonly #requested = new Map<string, number>();
  readonly #hidden = new Map<string, number>();
  #leader: LeaderRecord | undefined;
  readonly #viewLog = new ViewLog();
  #revisionInProgress = 0;
  #viewTouched = false;
  readonly #record = (change: ViewChange) => {
    this.#viewLog.record(this.#revisionInProgress, change);
    this.#viewTouched = true;
  };

  /** An empty picture of `namespace`. */
  constructor(namespace: string, liveness: LivenessOptions) {
    this.namespace = namespace;
    this.#executors = new ExecutorTable(liveness);
  }

  /** Store revision applied so far. */
  get revision(): number {
    return this.#revision;
  }

  /** Last committed assignment change number. */
  get seq(): number {
    return this.#seq;
  }

  /** Grows with every applied change a rebalance pass reads (see {@linkcode NamespaceView}). */
  get inputsVersion(): number {
    return this.#inputsVersion;
  }

  /** The leader's claim, if any. */
  get leader(): LeaderRecord | undefined {
    return this.#leader;
  }

  /** One executor. */
  executor(executorId: string): ExecutorView | undefined {
    return this.#executors.get(executorId);
  }

  /** Every known executor. */
  executors(): IterableIterator<ExecutorView> {
    return this.#executors.values();
  }

  /** Number of known executors. */
  get executorCount(): number {
    return this.#executors.size;
  }

  /** True when the executor's last heartbeat is recent enough at monotonic time `now`. */
  isAlive(executor: ExecutorView, now: number): boolean {
    return this.#executors.isAlive(executor, now);
  }

  /** When time alone next changes what a pass reads (see {@linkcode NamespaceView}). */
  livenessDeadline(now: number, retentionMs: number): number {
    return this.#executors.livenessDeadline(now, retentionMs);
  }

  /** True when the executor is out of the spectators' routing view (stale, holding nothing). */
  isHidden(executorId: string): boolean {
    return this.#hidden.has(executorId);
  }

  /** The owner (primary) of `shard`. */
  ownerOf(shard: string): string | undefined {
    return this.#assignment.index.owners.get(shard);
  }

  /** The owners of `shard`, primary first (empty when it has none). */
  ownersOf(shard: string): readonly string[] {
    return this.#assignment.index.ownersOf(shard);
  }

  /** Shards owned by `executorId` (alone or as one of several owners). */
  shardsOf(executorId: string): ReadonlySet<string> {
    return this.#assignment.index.shardsOf(executorId);
  }

  /** Every owned shard with its owner (primary). */
  owned(): IterableIterator<[string, string]> {
    return this.#assignment.index.owners.entries();
  }

  /** Number of owned shards. */
  get ownedCount(): number {
    return this.#assignment.index.owners.size;
  }

  /** True when some shard has more than one owner. */
  get hasOwnerSets(): boolean {
    return this.#assignment.index.ownerSets.size > 0;
  }

  /** The fencing token of `shard`'s owners. */
  fencingToken(shard: string): number | undefined {
    return this.#assignment.index.assignedRevisions.get(shard);
  }

  /** When `shard` got its current owner (ms since epoch), if known. */
  assignedAtMs(shard: string): number | undefined {
    return this.#assignment.assignedAtMs(shard);
  }

  /**
   * A number that changes whenever the shards of `executorId` or their
   * fencing tokens change, and never comes back: answers built from
   * {@linkcode shardsOf} may be cached under it.
   */
  shardSetStamp(executorId: string): number {
    return this.#assignment.index.stampOf(executorId);
  }

  /** The revision at which `shard`'s owner was asked to stop it. */
  releasedAt(shard: string): number | undefined {
    return this.#assignment.releasing.get(shard);
  }

  /** True when an operator drained `shard`. */
  isDrained(shard: string): boolean {
    return this.#drained.has(shard);
  }

  /** Drained shards. */
  drained(): IterableIterator<string> {
    return this.#drained.values();
  }

  /** Number of drained shards. */
  get drainedCount(): number {
    return this.#drained.size;
  }

  /** One executor drain, by id. */
  executorDrain(id: string): ExecutorDrain | undefined {
    return this.#executors.drain(id);
  }

  /** Every executor drain. */
  executorDrains(): IterableIterator<ExecutorDrain> {
    return this.#executors.drains();
  }

  /** Number of executor drains. */
  get executorDrainCount(): number {
    return this.#executors.drainCount;
  }

  /** The executor drains that apply to an executor with this id and metadata. */
  drainsOf(executorId: string, metadata: Readonly<Record<string, string>>): ExecutorDrain[] {
    return this.#executors.drainsOf(executorId, metadata);
  }

  /** True when an operator drain applies to `executor`. */
  isExecutorDrained(executor: ExecutorView): boolean {
    return this.#executors.isDrained(executor);
  }

  /** Store revision of the request for `shard`, if outstanding. */
  requestRevision(shard: string): number | undefined {
    return this.#requested.get(shard);
  }

  /** Number of outstanding shard requests. */
  get requestCount(): number {
    return this.#requested.size;
  }

  /** The changes watchers see after `revision`, or undefined when no longer known. */
  changesSince(revision: number): readonly ViewChange[] | undefined {
    return this.#viewLog.since(revision);
  }

  /** The collections, read-only, for planners and compaction. */
  tables(): NamespaceTables {
    const { index, times, releasing } = this.#assignment;
    return {
      owners: index.owners,
      ownerSets: index.ownerSets,
      byExecutor: index.byExecutor,
      assignedRevisions: index.assignedRevisions,
      assignmentTimes: times,
      releasing,
      drained: this.#drained,
      requested: this.#requested,
      hidden: this.#hidden,
    };
  }

  /**
   * After the store was unreachable from `sinceMs` until `now` (monotonic): no
   * heartbeat could be recorded meanwhile, so executors that were alive when it
   * began count as seen at `now`, as a fresh load would take them. Never makes
   * an executor look alive that was stale before. Returns how many it renewed.
   */
  forgiveOutage(sinceMs: number, now: number): number {
    const renewed = this.#executors.forgiveOutage(sinceMs, now);
    if (renewed > 0) this.#inputsVersion++;
    return renewed;
  }

  /**
   * Replaces everything with `snapshot`. Executors are taken as seen at `now`
   * (a new reader cannot know better) unless their last heartbeat is far older
   * than the TTL by the wall clock.
   */
  load(snapshot: NamespaceSnapshot, now: number, wallNow: number): void {
    this.#revision = snapshot.revision;
    this.#seq = snapshot.assignmentSeq;
    this.#inputsVersion++;
    this.#executors.load(snapshot.executors.values(), snapshot.executorDrains, now, wallNow);
    this.#assignment.load(snapshot);
    this.#drained.clear();
    for (const shard of snapshot.drained) this.#drained.add(shard);
    this.#requested.clear();
    for (const [shard, rev] of snapshot.requested) this.#requested.set(shard, rev);
    this.#leader = snapshot.leader ? { ...snapshot.leader } : undefined;
    this.#hidden.clear();
    this.#hide(snapshot.hidden ?? []);
    this.#viewLog.reset(snapshot.revision);
  }

  /** Applies one batch of changes seen at monotonic time `now`. */
  apply(batch: NamespaceEventBatch, now: number): ChangeSummary {
    const summary = { rebalance: false, view: false, resync: false };
    this.#revisionInProgress = batch.revision;
    this.#viewTouched = false;
    for (const event of batch.events) this.#applyEvent(event, batch.revision, now, summary);
    if (batch.revision > this.#revision) this.#revision = batch.revision;
    return { ...summary, view: summary.view || this.#viewTouched };
  }

  #applyEvent(
    event: NamespaceEvent,
    revision: number,
    now: number,
    out: { rebalance: boolean; view: boolean; resync: boolean },
  ): void {
    if (event.type !== "heartbeat" && event.type !== "leader") this.#inputsVersion++;
    switch (event.type) {
      case "heartbeat": {
        const known = this.#executors.get(event.executorId);
        if (!known || known.status !== event.record.status || !this.isAlive(known, now)) {
          out.rebalance = out.view = true;
          this.#inputsVersion++;
        }
        const executor = known ?? this.#addExecutor(event.executorId);
        executor.status = event.record.status;
        if (event.record.statusNumber === undefined) delete executor.statusNumber;
        else executor.statusNumber = event.record.statusNumber;
        executor.lastHeartbeatMs = event.record.timestampMs;
        executor.seenAtMs = now;
        executor.heartbeatRevision = revision;
        executor.appliedRevision = event.record.appliedRevision ?? 0;
        // Heard from again: back in the routing view.
        if (this.#hidden.delete(event.executorId)) {
          this.#record({
            kind: "executor",
            executorId: event.executorId,
            metadata: executor.metadata,
          });
        }
        // The owner of a releasing shard may have confirmed that it stopped.
        if (this.#assignment.holdsReleasing(event.executorId)) {
          out.rebalance = true;
          this.#inputsVersion++;
        }
        return;
      }
      case "metadata": {
        const executor = this.#executors.get(event.executorId) ??
          this.#addExecutor(event.executorId);
        executor.metadata = event.metadata;
        if (!this.#hidden.has(event.executorId)) {
          this.#record({
            kind: "executor",
            executorId: event.executorId,
            metadata: event.metadata,
          });
        }
        out.view = true;
        // A selector drain may start or stop matching the executor; a zone may change.
        if (this.#executors.drainCount > 0 || this.hasOwnerSets) out.rebalance = true;
        return;
      }
      case "reports": {
        const executor = this.#executors.get(event.executorId) ??
          this.#addExecutor(event.executorId);
        if (Object.values(event.reports).some((r) => r.status === "DONE")) out.rebalance = true;
        executor.reports = event.reports;
        return;
      }
      case "executor_removed":
        // A hidden executor already left the routing view.
        if (this.#executors.delete(event.executorId) && !this.#hidden.delete(event.executorId)) {
          this.#record({ kind: "executor", executorId: event.executorId, metadata: undefined });
        }
        out.rebalance = out.view = true;
        return;
      case "assignment":
        this.#seq = event.seq;
        this.#assignment.apply(event.seq, event.delta, revision, this.#record);
        this.#hide(Object.entries(event.delta.hide ?? {}));
        out.view = true;
        return;
      case "executor_drain":
        this.#executors.setDrain(event.id, event.drain);
        out.rebalance = out.view = true;
        return;
      case "drained":
        if (event.drained) this.#drained.add(event.shardKey);
        else this.#drained.delete(event.shardKey);
        out.rebalance = true;
        return;
      case "requested":
        if (event.requested) {
          this.#requested.set(event.shardKey, revision);
          out.rebalance = true;
        } else this.#requested.delete(event.shardKey);
        return;
      case "leader":
        this.#leader = event.claim ? { claim: event.claim, revision } : undefined;
        return;
      case "resync":
        out.resync = true;
        return;
    }
  }

  /** Hides executors still at the heartbeat revision a leader judged stale. */
  #hide(entries: Iterable<readonly [string, number]>): void {
    for (const [id, heartbeatRevision] of entries) {
      if (this.#executors.get(id)?.heartbeatRevision !== heartbeatRevision) continue;
      if (this.#hidden.has(id)) continue;
      this.#hidden.set(id, heartbeatRevision);
      this.#record({ kind: "executor", executorId: id, metadata: undefined });
    }
  }

  #addExecutor(executorId: string): ExecutorRecord {
    const executor = this.#executors.add(executorId);
    this.#record({ kind: "executor", executorId, metadata: executor.metadata });
    return executor;
  }
}
