/**
 * The in-memory picture of one namespace, kept current from the store's change
 * feed. Routing answers and leader passes both read it; nothing here does I/O.
 *
 * @module
 */
import { applyReleases } from "../core/assignment.ts";
import { drainMatches, type ExecutorDrain } from "../core/executor_drain.ts";
import type { AssignmentDelta, LeaderClaim } from "../core/types.ts";
import type { NamespaceEventBatch, NamespaceSnapshot } from "../store/store.ts";
import { type ExecutorView, loadedExecutor, newExecutor } from "./executor_view.ts";
import { OwnerIndex } from "./owner_index.ts";
import { type ViewChange, ViewLog } from "./view_log.ts";

export type { ExecutorView } from "./executor_view.ts";

/** What applying a batch changed. */
export interface ChangeSummary {
  /** Something a rebalance pass should react to. */
  readonly rebalance: boolean;
  /** Something a watcher of the namespace sees (owners, executors, metadata). */
  readonly view: boolean;
  /** The store asked for a reload. */
  readonly resync: boolean;
}

/** Times that decide liveness. */
export interface LivenessOptions {
  /** An executor unseen for longer is stale. */
  readonly heartbeatTtlMs: number;
  /**
   * Ownership lease of an exclusive namespace: a reader that loads a snapshot
   * then never takes an executor as long gone (by the wall clock) before twice
   * this has passed, so a lease is never cut short.
   */
  readonly ownershipLeaseMs?: number;
}

/** The mutable picture of a namespace. */
export class NamespaceState {
  /** Namespace name. */
  readonly namespace: string;
  /** Store revision applied so far. */
  revision = 0;
  /** Last committed assignment change number. */
  seq = 0;
  /**
   * Grows with every applied change a rebalance pass reads: everything but the
   * heartbeat refreshes of live executors and leader claims. Equal values mean
   * a pass would see the same picture (time aside, see {@linkcode livenessDeadline}).
   */
  inputsVersion = 0;
  /** Executors by id. */
  readonly executors: Map<string, ExecutorView> = new Map();
  /** Shard → owner (the primary, first of the set, of a shard with several owners). */
  readonly owners: Map<string, string>;
  /**
   * Replicated namespaces: shard → full owner set (primary first) of the
   * shards with more than one owner. Empty in a single-owner namespace.
   */
  readonly ownerSets: Map<string, readonly string[]>;
  /** Owner → its shards (a shard with several owners is listed under each). */
  readonly byExecutor: Map<string, Set<string>>;
  /**
   * Shard → revision of the change that gave it its owner or, with several
   * owners, last changed its owner set: the fencing token of every owner.
   */
  readonly assignedRevisions: Map<string, number>;
  /** Store revision → commit time (ms since epoch) of assignment changes still held by a shard. */
  readonly assignmentTimes: Map<number, number> = new Map();
  /**
   * Shards whose owner was asked to stop them (the first step of a handover in
   * an exclusive namespace) → store revision of that change.
   */
  readonly releasing: Map<string, number> = new Map();
  /** Drained shards. */
  readonly drained: Set<string> = new Set();
  /** Operator drains of executors, by drain id. */
  readonly executorDrains: Map<string, ExecutorDrain> = new Map();
  /** Ephemeral shards asked for, with their store revision. */
  readonly requested: Map<string, number> = new Map();
  /**
   * Executors a leader found stale and holding nothing, left out of the
   * spectators' routing view (GetNamespaceState still lists them) → the
   * heartbeat revision it judged. Heard from again, an executor is back.
   */
  readonly hidden: Map<string, number> = new Map();
  /** The leader's claim, if any. */
  leader: { claim: LeaderClaim; revision: number } | undefined;
  /** Recent changes watchers see, for deltas to spectators. */
  readonly viewLog: ViewLog = new ViewLog();
  #revisionInProgress = 0;
  #index = new OwnerIndex();
  #viewTouched = false;
  #liveness: LivenessOptions;

  /** An empty picture of `namespace`. */
  constructor(namespace: string, liveness: LivenessOptions) {
    this.namespace = namespace;
    // The index's maps, shared: readers keep using them directly.
    this.owners = this.#index.owners;
    this.ownerSets = this.#index.ownerSets;
    this.byExecutor = this.#index.byExecutor;
    this.assignedRevisions = this.#index.assignedRevisions;
    this.#liveness = liveness;
  }

  /** True when the executor's last heartbeat is recent enough at monotonic time `now`. */
  isAlive(executor: ExecutorView, now: number): boolean {
    return now - executor.seenAtMs <= this.#liveness.heartbeatTtlMs;
  }

  /**
   * The earliest monotonic time after `now` at which some executor's liveness
   * runs out (it turns stale) or, for a stale one, `retentionMs` since it was
   * last seen runs out: until then time alone changes nothing a pass reads.
   */
  livenessDeadline(now: number, retentionMs: number): number {
    let deadline = Infinity;
    for (const e of this.executors.values()) {
      const stale = e.seenAtMs + this.#liveness.heartbeatTtlMs;
      const at = now <= stale ? stale : e.seenAtMs + retentionMs;
      if (at >= now && at < deadline) deadline = at;
    }
    return deadline;
  }

  /** The executor drains that apply to an executor with this id and metadata. */
  drainsOf(executorId: string, metadata: Readonly<Record<string, string>>): ExecutorDrain[] {
    const out: ExecutorDrain[] = [];
    for (const drain of this.executorDrains.values()) {
      if (drainMatches(drain, executorId, metadata)) out.push(drain);
    }
    return out;
  }

  /** True when an operator drain applies to `executor`. */
  isExecutorDrained(executor: ExecutorView): boolean {
    if (this.executorDrains.size === 0) return false;
    for (const drain of this.executorDrains.values()) {
      if (drainMatches(drain, executor.executorId, executor.metadata)) return true;
    }
    return false;
  }

  /** When `shard` got its current owner (ms since epoch), if known. */
  assignedAtMs(shard: string): number | undefined {
    const revision = this.assignedRevisions.get(shard);
    return revision === undefined ? undefined : this.assignmentTimes.get(revision);
  }

  /**
   * A number that changes whenever the shards of `executorId` or their
   * fencing tokens change, and never comes back: answers built from
   * {@linkcode shardsOf} may be cached under it.
   */
  shardSetStamp(executorId: string): number {
    return this.#index.stampOf(executorId);
  }

  /** The owners of `shard`, primary first (empty when it has none). */
  ownersOf(shard: string): readonly string[] {
    return this.#index.ownersOf(shard);
  }

  /** Shards owned by `executorId` (alone or as one of several owners). */
  shardsOf(executorId: string): ReadonlySet<string> {
    return this.#index.shardsOf(executorId);
  }

  /**
   * Replaces everything with `snapshot`. Executors are taken as seen at `now`
   * (a new reader cannot know better) unless their last heartbeat is far older
   * than the TTL by the wall clock.
   */
  load(snapshot: NamespaceSnapshot, now: number, wallNow: number): void {
    this.revision = snapshot.revision;
    this.seq = snapshot.assignmentSeq;
    this.inputsVersion++;
    this.#index.clear();
    this.executors.clear();
    for (const e of snapshot.executors.values()) {
      this.executors.set(e.executorId, loadedExecutor(e, now, wallNow, this.#liveness));
    }
    const sets = snapshot.ownerSets;
    for (const [shard, owner] of snapshot.owners) {
      const revision = snapshot.assignedRevisions.get(shard) ?? snapshot.revision;
      const set = sets?.get(shard);
      if (set !== undefined && set.length > 1 && set[0] === owner) {
        this.#index.set(shard, set, revision);
      } else this.#index.setOwner(shard, owner, revision);
    }
    this.assignmentTimes.clear();
    for (const [revision, ms] of snapshot.assignmentTimes) this.assignmentTimes.set(revision, ms);
    this.releasing.clear();
    for (const [shard, rev] of snapshot.releasing ?? []) {
      if (this.owners.has(shard)) this.releasing.set(shard, rev);
    }
    this.drained.clear();
    for (const shard of snapshot.drained) this.drained.add(shard);
    this.executorDrains.clear();
    for (const [id, drain] of snapshot.executorDrains) this.executorDrains.set(id, drain);
    this.requested.clear();
    for (const [shard, rev] of snapshot.requested) this.requested.set(shard, rev);
    this.leader = snapshot.leader ? { ...snapshot.leader } : undefined;
    this.hidden.clear();
    this.#hide(snapshot.hidden ?? []);
    this.viewLog.reset(snapshot.revision);
  }

  /** Applies one batch of changes seen at monotonic time `now`. */
  apply(batch: NamespaceEventBatch, now: number): ChangeSummary {
    let rebalance = false, view = false, resync = false;
    this.#revisionInProgress = batch.revision;
    this.#viewTouched = false;
    for (const event of batch.events) {
      if (event.type !== "heartbeat" && event.type !== "leader") this.inputsVersion++;
      switch (event.type) {
        case "heartbeat": {
          const known = this.executors.get(event.executorId);
          if (!known || known.status !== event.record.status || !this.isAlive(known, now)) {
            rebalance = view = true;
            this.inputsVersion++;
          }
          const executor = known ?? this.#newExecutor(event.executorId);
          executor.status = event.record.status;
          if (event.record.statusNumber === undefined) delete executor.statusNumber;
          else executor.statusNumber = event.record.statusNumber;
          executor.lastHeartbeatMs = event.record.timestampMs;
          executor.seenAtMs = now;
          executor.heartbeatRevision = batch.revision;
          executor.appliedRevision = event.record.appliedRevision ?? 0;
          if (this.hidden.delete(event.executorId)) {
            this.#record({
              kind: "executor",
              executorId: event.executorId,
              metadata: executor.metadata,
            });
          }
          // The owner of a releasing shard may have confirmed that it stopped.
          if (this.#holdsReleasing(event.executorId)) {
            rebalance = true;
            this.inputsVersion++;
          }
          break;
        }
        case "metadata":
          (this.executors.get(event.executorId) ?? this.#newExecutor(event.executorId))
            .metadata = event.metadata;
          if (!this.hidden.has(event.executorId)) {
            this.#record({
              kind: "executor",
              executorId: event.executorId,
              metadata: event.metadata,
            });
          }
          view = true;
          // A selector drain may start or stop matching the executor; a zone may change.
          if (this.executorDrains.size > 0 || this.ownerSets.size > 0) rebalance = true;
          break;
        case "reports": {
          const executor = this.executors.get(event.executorId) ??
            this.#newExecutor(event.executorId);
          if (Object.values(event.reports).some((r) => r.status === "DONE")) rebalance = true;
          executor.reports = event.reports;
          break;
        }
        case "executor_removed":
          // A hidden executor already left the routing view.
          if (this.executors.delete(event.executorId) && !this.hidden.delete(event.executorId)) {
            this.#record({ kind: "executor", executorId: event.executorId, metadata: undefined });
          }
          rebalance = view = true;
          break;
        case "assignment":
          this.#applyAssignment(event.seq, event.delta, batch.revision);
          view = true;
          break;
        case "executor_drain":
          if (event.drain) this.executorDrains.set(event.id, event.drain);
          else this.executorDrains.delete(event.id);
          rebalance = view = true;
          break;
        case "drained":
          if (event.drained) this.drained.add(event.shardKey);
          else this.drained.delete(event.shardKey);
          rebalance = true;
          break;
        case "requested":
          if (event.requested) {
            this.requested.set(event.shardKey, batch.revision);
            rebalance = true;
          } else this.requested.delete(event.shardKey);
          break;
        case "leader":
          this.leader = event.claim ? { claim: event.claim, revision: batch.revision } : undefined;
          break;
        case "resync":
          resync = true;
          break;
      }
    }
    if (batch.revision > this.revision) this.revision = batch.revision;
    return { rebalance, view: view || this.#viewTouched, resync };
  }

  #holdsReleasing(executorId: string): boolean {
    for (const shard of this.releasing.keys()) {
      if (this.owners.get(shard) === executorId) return true;
    }
    return false;
  }

  #newExecutor(executorId: string): ExecutorView {
    const executor = newExecutor(executorId);
    this.executors.set(executorId, executor);
    this.#record({ kind: "executor", executorId, metadata: executor.metadata });
    return executor;
  }

  #applyAssignment(seq: number, delta: AssignmentDelta, revision: number): void {
    this.seq = seq;
    if (delta.atMs !== undefined) this.assignmentTimes.set(revision, delta.atMs);
    if (seq % PRUNE_TIMES_EVERY === 0) this.#pruneTimes();
    for (const shard of [...delta.unassign, ...delta.remove]) {
      if (this.owners.has(shard)) this.#record({ kind: "owner", shard, owner: undefined });
      this.#index.delete(shard);
    }
    const sets = delta.sets;
    for (const [executor, shards] of Object.entries(delta.assign)) {
      for (const shard of shards) {
        const set = sets?.[shard];
        if (set !== undefined && set.length > 1 && set[0] === executor) {
          if (!sameOwners(this.ownersOf(shard), set)) {
            this.#record({ kind: "owner", shard, owner: executor, owners: set });
          }
          this.#index.set(shard, set, revision);
          continue;
        }
        if (this.owners.get(shard) !== executor || this.ownerSets.has(shard)) {
          this.#record({ kind: "owner", shard, owner: executor });
        }
        this.#index.setOwner(shard, executor, revision);
      }
    }
    applyReleases(this.releasing, this.owners, delta, revision);
    this.#hide(Object.entries(delta.hide ?? {}));
  }

  /** Hides executors still at the heartbeat revision a leader judged stale. */
  #hide(entries: Iterable<readonly [string, number]>): void {
    for (const [id, heartbeatRevision] of entries) {
      if (this.executors.get(id)?.heartbeatRevision !== heartbeatRevision) continue;
      if (this.hidden.has(id)) continue;
      this.hidden.set(id, heartbeatRevision);
      this.#record({ kind: "executor", executorId: id, metadata: undefined });
    }
  }

  #record(change: ViewChange): void {
    this.viewLog.record(this.#revisionInProgress, change);
    this.#viewTouched = true;
  }

  #pruneTimes(): void {
    const held = new Set(this.assignedRevisions.values());
    for (const revision of this.assignmentTimes.keys()) {
      if (!held.has(revision)) this.assignmentTimes.delete(revision);
    }
  }
}

function sameOwners(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** Commit times of revisions no shard holds any more are dropped this often (in changes). */
const PRUNE_TIMES_EVERY = 256;
