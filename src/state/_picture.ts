/**
 * The mutable parts of a namespace picture and the two ways they change:
 * loading a snapshot and applying a batch of the change feed. Private to
 * {@linkcode NamespaceState}, which alone holds a `Picture` and hands out
 * read-only views of it.
 *
 * @module
 */
import { CAPACITY_LOAD_KEY, CAPACITY_SHARDS_KEY } from "../shared/capacity.ts";
import type { AssignmentDelta } from "../core/types.ts";
import type { NamespaceEvent, NamespaceEventBatch, NamespaceSnapshot } from "../store/store.ts";
import { AssignmentTable } from "./assignment_table.ts";
import { addTouchedExecutors } from "./assignment_touches.ts";
import { FixedOwnerIndex } from "./fixed_owner_index.ts";
import { OwnerIndex } from "./owner_index.ts";
import { PrepareTable } from "./prepare_table.ts";
import { type ExecutorRecord, ExecutorTable, type LivenessOptions } from "./executor_table.ts";
import type { LeaderRecord } from "./namespace_view.ts";
import { type ViewChange, ViewLog } from "./view_log.ts";

/** What applying a batch changed. */
export interface ChangeSummary {
  /** Something a rebalance pass should react to. */
  readonly rebalance: boolean;
  /** Something a watcher of the namespace sees (owners, executors, metadata). */
  readonly view: boolean;
  /** The store asked for a reload. */
  readonly resync: boolean;
}

/** The mutable picture. */
export class Picture {
  revision = 0;
  /** Store revision of the last snapshot loaded (start or resync). */
  loadedRevision = 0;
  seq = 0;
  inputsVersion = 0;
  readonly executors: ExecutorTable;
  readonly assignment: AssignmentTable;
  readonly drained: Set<string> = new Set();
  /** Drained shard → its drain's reason (`quarantined`), for drains that have one. */
  readonly drainReasons: Map<string, string> = new Map();
  readonly requested: Map<string, number> = new Map();
  readonly hidden: Map<string, number> = new Map();
  /** A key-range namespace's slice map (`AssignmentDelta.slices`' form); undefined: none. */
  slices: string | undefined;
  /** Owner changes by the leaders' reasons, summed over the changes applied since this picture started. */
  readonly moveCounts = { placement: 0, balance: 0, drain: 0, loss: 0 };
  /** Shard → monotonic time of its last move between executors (see NamespaceTables.movedAt). */
  readonly movedAt: Map<string, number> = new Map();
  /** Warm handovers in flight. */
  readonly prepares: PrepareTable = new PrepareTable();
  leader: LeaderRecord | undefined;
  readonly viewLog: ViewLog = new ViewLog();
  #revisionInProgress = 0;
  #viewTouched = false;
  readonly #record = (change: ViewChange) => {
    this.viewLog.record(this.#revisionInProgress, change);
    this.#viewTouched = true;
  };

  /**
   * An empty picture judging liveness with `liveness`; a fixed namespace's
   * owners are kept by shard number (`shardNum`, see fixed_owner_index.ts).
   */
  constructor(liveness: LivenessOptions, shardNum?: number) {
    this.executors = new ExecutorTable(liveness);
    this.assignment = new AssignmentTable(
      shardNum === undefined ? new OwnerIndex() : new FixedOwnerIndex(shardNum),
    );
  }

  /** Replaces everything with `snapshot` (see `NamespaceState.load`). */
  load(snapshot: NamespaceSnapshot, now: number, wallNow: number): void {
    this.revision = snapshot.revision;
    this.loadedRevision = snapshot.revision;
    this.seq = snapshot.assignmentSeq;
    this.inputsVersion++;
    this.executors.load(snapshot.executors.values(), snapshot.executorDrains, now, wallNow);
    this.assignment.load(snapshot);
    this.prepares.load(
      snapshot.preparing,
      this.assignment.index.owners,
      now,
      snapshot.assignmentTimes,
    );
    this.drained.clear();
    for (const shard of snapshot.drained) this.drained.add(shard);
    this.drainReasons.clear();
    for (const [shard, reason] of snapshot.drainReasons ?? []) this.drainReasons.set(shard, reason);
    this.requested.clear();
    for (const [shard, rev] of snapshot.requested) this.requested.set(shard, rev);
    this.leader = snapshot.leader ? { ...snapshot.leader } : undefined;
    this.slices = snapshot.slices;
    this.hidden.clear();
    this.movedAt.clear();
    this.#hide(snapshot.hidden ?? []);
    this.viewLog.reset(snapshot.revision);
  }

  /**
   * Applies one batch of changes seen at monotonic time `now`; with `touched`,
   * adds to it the executors whose assignment the batch changes.
   */
  apply(batch: NamespaceEventBatch, now: number, touched?: Set<string>): ChangeSummary {
    const summary = { rebalance: false, view: false, resync: false };
    this.#revisionInProgress = batch.revision;
    this.#viewTouched = false;
    for (const event of batch.events) {
      if (touched && event.type === "assignment") {
        addTouchedExecutors(event.delta, this.assignment.index, touched, this.prepares.byShard);
      }
      this.#applyEvent(event, batch.revision, now, summary);
    }
    if (batch.revision > this.revision) this.revision = batch.revision;
    return { ...summary, view: summary.view || this.#viewTouched };
  }

  #applyEvent(
    event: NamespaceEvent,
    revision: number,
    now: number,
    out: { rebalance: boolean; view: boolean; resync: boolean },
  ): void {
    if (event.type !== "heartbeat" && event.type !== "leader") this.inputsVersion++;
    switch (event.type) {
      case "heartbeat":
        return this.#heartbeat(event, revision, now, out);
      case "metadata": {
        const executor = this.#executor(event.executorId);
        // A declared capacity (shared/capacity.ts) is placement input: plan with the new one.
        if (
          executor.metadata[CAPACITY_SHARDS_KEY] !== event.metadata[CAPACITY_SHARDS_KEY] ||
          executor.metadata[CAPACITY_LOAD_KEY] !== event.metadata[CAPACITY_LOAD_KEY]
        ) out.rebalance = true;
        executor.metadata = event.metadata;
        if (!this.hidden.has(event.executorId)) {
          this.#record({
            kind: "executor",
            executorId: event.executorId,
            metadata: event.metadata,
          });
        }
        out.view = true;
        // A selector drain may start or stop matching the executor; a zone may change.
        const replicated = this.assignment.index.ownerSets.size > 0;
        if (this.executors.drainCount > 0 || replicated) out.rebalance = true;
        return;
      }
      case "reports":
        for (const report of event.reports.values()) {
          // DONE: the shard is removed; PREPARED: a warm handover may switch.
          if (report.status === "DONE" || report.status === "PREPARED") {
            out.rebalance = true;
            break;
          }
        }
        this.#executor(event.executorId).reports = event.reports;
        return;
      case "executor_removed":
        // A hidden executor already left the routing view.
        if (this.executors.delete(event.executorId) && !this.hidden.delete(event.executorId)) {
          this.#record({ kind: "executor", executorId: event.executorId, metadata: undefined });
        }
        out.rebalance = out.view = true;
        return;
      case "assignment":
        this.#noteMoves(event.delta, now);
        if (event.delta.moves) {
          for (const key of ["placement", "balance", "drain", "loss"] as const) {
            this.moveCounts[key] += event.delta.moves[key] ?? 0;
          }
        }
        this.seq = event.seq;
        this.assignment.apply(event.seq, event.delta, revision, this.#record);
        this.prepares.apply(event.delta, revision, this.assignment.index.owners, now);
        this.#hide(Object.entries(event.delta.hide ?? {}));
        if (event.delta.slices !== undefined && event.delta.slices !== this.slices) {
          this.slices = event.delta.slices;
          this.#record({ kind: "slices" });
        }
        out.view = true;
        return;
      case "executor_drain":
        this.executors.setDrain(event.id, event.drain);
        out.rebalance = out.view = true;
        return;
      case "drained":
        if (event.drained) this.drained.add(event.shardKey);
        else this.drained.delete(event.shardKey);
        if (event.drained && event.reason) this.drainReasons.set(event.shardKey, event.reason);
        else this.drainReasons.delete(event.shardKey);
        out.rebalance = true;
        return;
      case "requested":
        if (event.requested) {
          this.requested.set(event.shardKey, revision);
          out.rebalance = true;
        } else this.requested.delete(event.shardKey);
        return;
      case "leader":
        this.leader = event.claim ? { claim: event.claim, revision } : undefined;
        return;
      case "resync":
        out.resync = true;
        return;
    }
  }

  #heartbeat(
    event: Extract<NamespaceEvent, { type: "heartbeat" }>,
    revision: number,
    now: number,
    out: { rebalance: boolean; view: boolean },
  ): void {
    const known = this.executors.get(event.executorId);
    if (!known || known.status !== event.record.status || !this.executors.isAlive(known, now)) {
      out.rebalance = out.view = true;
      this.inputsVersion++;
    }
    const executor = known ?? this.#executor(event.executorId);
    if (event.record.status !== "ACTIVE") delete executor.activeSinceMs;
    else if (
      executor.activeSinceMs === undefined || executor.status !== "ACTIVE" ||
      !this.executors.isAlive(executor, now)
    ) executor.activeSinceMs = now;
    executor.status = event.record.status;
    if (event.record.statusNumber === undefined) delete executor.statusNumber;
    else executor.statusNumber = event.record.statusNumber;
    executor.lastHeartbeatMs = event.record.timestampMs;
    executor.seenAtMs = now;
    delete executor.graceUntilMs; // heard: the grace of a load is over
    executor.heartbeatRevision = revision;
    executor.appliedRevision = event.record.appliedRevision ?? 0;
    if (event.record.warmHandover) executor.warmHandover = true;
    else delete executor.warmHandover;
    if (event.record.incarnation) executor.incarnation = event.record.incarnation;
    else delete executor.incarnation;
    // Heard from again: back in the routing view.
    if (this.hidden.delete(event.executorId)) {
      this.#record({ kind: "executor", executorId: event.executorId, metadata: executor.metadata });
    }
    // The owner of a releasing shard may have confirmed that it stopped.
    if (this.assignment.holdsReleasing(event.executorId)) {
      out.rebalance = true;
      this.inputsVersion++;
    }
  }

  /** Notes when shards change owner from one executor to another. */
  #noteMoves(delta: AssignmentDelta, now: number): void {
    const owners = this.assignment.index.owners;
    for (const shard of delta.unassign) this.movedAt.delete(shard);
    for (const shard of delta.remove) this.movedAt.delete(shard);
    for (const [executor, shards] of Object.entries(delta.assign)) {
      for (const shard of shards) {
        const before = owners.get(shard);
        if (before !== undefined && before !== executor) this.movedAt.set(shard, now);
      }
    }
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

  /** The executor, added (and recorded for watchers) when first heard of. */
  #executor(executorId: string): ExecutorRecord {
    const known = this.executors.get(executorId);
    if (known) return known;
    const executor = this.executors.add(executorId);
    this.#record({ kind: "executor", executorId, metadata: executor.metadata });
    return executor;
  }
}
