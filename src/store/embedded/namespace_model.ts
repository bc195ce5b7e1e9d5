/**
 * One namespace of the embedded store, in memory: the same facts the etcd
 * layout holds, kept as maps. Every change arrives as a `NamespaceEvent`, the
 * store's own vocabulary, so the journal replays through the same code.
 *
 * @module
 */
import { NO_REPORTS, reportsFrom } from "../../core/shared_reports.ts";
import { type Preparing, replayDelta } from "../../core/assignment.ts";
import type { ExecutorDrain } from "../../core/executor_drain.ts";
import type { HeartbeatRecord, LeaderClaim, ShardReports } from "../../core/types.ts";
import type { NamespaceEvent, NamespaceSnapshot, StoredExecutor } from "../store.ts";

interface ModelExecutor {
  heartbeat?: HeartbeatRecord;
  heartbeatRevision: number;
  metadata: Readonly<Record<string, string>>;
  reports: ShardReports;
}

/** The plain-data form of a model, as written in the embedded store's snapshot file. */
export interface ModelImage {
  /** Executors: [id, executor]. */
  readonly executors: [string, ModelExecutor][];
  /** Last committed change number. */
  readonly seq: number;
  /** [shard, executor, revision]. */
  readonly owners: [string, string, number][];
  /** [revision, commit ms]. */
  readonly times: [number, number][];
  /** [shard, owner set] of shards with several owners (absent when none). */
  readonly sets?: [string, readonly string[]][];
  /** [shard, revision of its release] (absent in images written before handovers). */
  readonly releasing?: [string, number][];
  /** [shard, incoming owner, revision of its prepare] of warm handovers in flight (absent when none). */
  readonly preparing?: [string, string, number][];
  /** [executor, heartbeat revision] of executors hidden from the routing view (absent when none). */
  readonly hidden?: [string, number][];
  /** A key-range namespace's slice map (`AssignmentDelta.slices`' form; absent when none). */
  readonly slices?: string;
  /** Drained shards. */
  readonly drained: string[];
  /** [shard, reason] of the drained shards that carry a reason (absent when none). */
  readonly drainReasons?: [string, string][];
  /** [shard, revision]. */
  readonly requested: [string, number][];
  /** Executor drains. */
  readonly executorDrains: ExecutorDrain[];
  /** The leader claim with its revision. */
  readonly leader?: { claim: LeaderClaim; revision: number };
}

/** A namespace's stored facts. */
export class NamespaceModel {
  /** Executors by id. */
  readonly executors: Map<string, ModelExecutor> = new Map();
  /** Last committed change number. */
  seq = 0;
  /** Shard → executor. */
  readonly owners: Map<string, string> = new Map();
  /** Shard → owner set, for shards with several owners (`owners` holds the primary). */
  readonly ownerSets: Map<string, readonly string[]> = new Map();
  /** Shard → revision of the change that gave it its owner. */
  readonly revisions: Map<string, number> = new Map();
  /** Revision → commit time. */
  readonly times: Map<number, number> = new Map();
  /** Releasing shard → revision of the change that released it. */
  readonly releasing: Map<string, number> = new Map();
  /** Warm handovers in flight: shard → incoming owner and the revision of its prepare. */
  readonly preparing: Map<string, Preparing> = new Map();
  /** Executor hidden from the routing view → the heartbeat revision it was hidden at. */
  readonly hidden: Map<string, number> = new Map();
  /** A key-range namespace's slice map (`AssignmentDelta.slices`' form). */
  slices: string | undefined;
  /** Drained shards. */
  readonly drained: Set<string> = new Set();
  /** Drained shard → its drain's reason, when it has one. */
  readonly drainReasons: Map<string, string> = new Map();
  /** Shard → revision of its request. */
  readonly requested: Map<string, number> = new Map();
  /** Executor drains by id. */
  readonly executorDrains: Map<string, ExecutorDrain> = new Map();
  /** The leader claim. */
  leader: { claim: LeaderClaim; revision: number } | undefined;

  /** True when nothing is stored. */
  get empty(): boolean {
    return this.executors.size + this.owners.size + this.drained.size + this.requested.size +
            this.executorDrains.size === 0 && this.seq === 0 && this.leader === undefined;
  }

  /** How many etcd-style keys the model holds (what a reset reports as deleted). */
  keyCount(): number {
    let keys = this.drained.size + this.requested.size + this.executorDrains.size;
    for (const e of this.executors.values()) {
      keys += (e.heartbeat ? 1 : 0) + 2;
    }
    if (this.seq > 0) keys += 2;
    if (this.leader) keys += 1;
    return keys;
  }

  /** Applies one event written at `revision`. */
  apply(event: NamespaceEvent, revision: number): void {
    switch (event.type) {
      case "heartbeat":
        this.#executor(event.executorId).heartbeat = event.record;
        this.#executor(event.executorId).heartbeatRevision = revision;
        this.hidden.delete(event.executorId); // heard from again
        break;
      case "metadata":
        this.#executor(event.executorId).metadata = event.metadata;
        break;
      case "reports":
        this.#executor(event.executorId).reports = event.reports;
        break;
      case "executor_removed":
        this.executors.delete(event.executorId);
        this.hidden.delete(event.executorId);
        break;
      case "assignment":
        this.seq = event.seq;
        if (event.delta.atMs !== undefined) this.times.set(revision, event.delta.atMs);
        replayDelta(this, event.delta, revision);
        for (const shard of [...event.delta.unassign, ...event.delta.remove]) {
          if (!this.owners.has(shard)) this.revisions.delete(shard);
        }
        for (const [id, heartbeatRevision] of Object.entries(event.delta.hide ?? {})) {
          // Only while its heartbeat record is the one the leader judged.
          if (this.executors.get(id)?.heartbeatRevision === heartbeatRevision) {
            this.hidden.set(id, heartbeatRevision);
          }
        }
        if (event.delta.slices !== undefined) this.slices = event.delta.slices;
        break;
      case "drained":
        if (event.drained) this.drained.add(event.shardKey);
        else this.drained.delete(event.shardKey);
        if (event.drained && event.reason) this.drainReasons.set(event.shardKey, event.reason);
        else this.drainReasons.delete(event.shardKey);
        break;
      case "executor_drain":
        if (event.drain) this.executorDrains.set(event.id, event.drain);
        else this.executorDrains.delete(event.id);
        break;
      case "requested":
        if (event.requested) this.requested.set(event.shardKey, revision);
        else this.requested.delete(event.shardKey);
        break;
      case "leader":
        this.leader = event.claim ? { claim: event.claim, revision } : undefined;
        break;
      case "resync":
        break;
    }
  }

  /** The namespace as the `Store` port returns it, read at `revision`. */
  snapshot(revision: number): NamespaceSnapshot {
    const executors = new Map<string, StoredExecutor>();
    for (const [executorId, e] of this.executors) executors.set(executorId, { executorId, ...e });
    const held = new Set(this.revisions.values());
    const times = new Map([...this.times].filter(([rev]) => held.has(rev)));
    return {
      revision,
      executors,
      assignmentSeq: this.seq,
      owners: new Map(this.owners),
      ...(this.ownerSets.size > 0 ? { ownerSets: new Map(this.ownerSets) } : {}),
      assignedRevisions: new Map(this.revisions),
      assignmentTimes: times,
      releasing: new Map(this.releasing),
      ...(this.preparing.size > 0 ? { preparing: new Map(this.preparing) } : {}),
      ...(this.hidden.size > 0 ? { hidden: new Map(this.hidden) } : {}),
      ...(this.slices === undefined ? {} : { slices: this.slices }),
      drained: new Set(this.drained),
      ...(this.drainReasons.size > 0 ? { drainReasons: new Map(this.drainReasons) } : {}),
      executorDrains: new Map(this.executorDrains),
      requested: new Map(this.requested),
      ...(this.leader ? { leader: { ...this.leader } } : {}),
    };
  }

  /** The model as plain data. */
  image(): ModelImage {
    const held = new Set(this.revisions.values());
    return {
      executors: [...this.executors],
      seq: this.seq,
      owners: [...this.owners].map(([s, e]) => [s, e, this.revisions.get(s) ?? 0]),
      times: [...this.times].filter(([rev]) => held.has(rev)),
      ...(this.ownerSets.size > 0 ? { sets: [...this.ownerSets] } : {}),
      releasing: [...this.releasing],
      ...(this.preparing.size > 0
        ? { preparing: [...this.preparing].map(([s, p]) => [s, p.executor, p.revision]) }
        : {}),
      ...(this.hidden.size > 0 ? { hidden: [...this.hidden] } : {}),
      ...(this.slices === undefined ? {} : { slices: this.slices }),
      drained: [...this.drained],
      ...(this.drainReasons.size > 0 ? { drainReasons: [...this.drainReasons] } : {}),
      requested: [...this.requested],
      executorDrains: [...this.executorDrains.values()],
      ...(this.leader ? { leader: this.leader } : {}),
    };
  }

  /** A model from plain data. */
  static from(image: ModelImage): NamespaceModel {
    const model = new NamespaceModel();
    for (const [id, e] of image.executors) {
      // Written as a plain object (journal.ts); an executor's reports are a map.
      model.executors.set(id, { ...e, reports: reportsFrom(e.reports) });
    }
    model.seq = image.seq;
    for (const [shard, executor, revision] of image.owners) {
      model.owners.set(shard, executor);
      model.revisions.set(shard, revision);
    }
    for (const [revision, ms] of image.times) model.times.set(revision, ms);
    for (const [shard, set] of image.sets ?? []) model.ownerSets.set(shard, set);
    for (const [shard, revision] of image.releasing ?? []) model.releasing.set(shard, revision);
    for (const [shard, executor, revision] of image.preparing ?? []) {
      model.preparing.set(shard, { executor, revision });
    }
    for (const [id, revision] of image.hidden ?? []) model.hidden.set(id, revision);
    model.slices = image.slices;
    for (const shard of image.drained) model.drained.add(shard);
    for (const [shard, reason] of image.drainReasons ?? []) model.drainReasons.set(shard, reason);
    for (const [shard, revision] of image.requested) model.requested.set(shard, revision);
    for (const drain of image.executorDrains) model.executorDrains.set(drain.id, drain);
    model.leader = image.leader;
    return model;
  }

  #executor(id: string): ModelExecutor {
    let e = this.executors.get(id);
    if (!e) this.executors.set(id, e = { heartbeatRevision: 0, metadata: {}, reports: NO_REPORTS });
    return e;
  }
}
