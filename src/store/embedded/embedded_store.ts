/**
 * The `Store` port on an embedded engine: namespaces kept in memory as
 * `NamespaceModel`s, every change committed as one revision of a global
 * counter, journaled to disk before it is acknowledged or streamed. Single
 * process only: the data directory is locked.
 *
 * It needs no etcd and starts with the service; it is for trying Shard
 * Manager out and for single-node deployments. For high availability use
 * etcd (several service instances then share one cluster).
 *
 * @module
 */
import type { ExecutorDrain } from "../../core/executor_drain.ts";
import { FencedError } from "../../core/errors.ts";
import type {
  AssignmentDelta,
  ExecutorWrite,
  LeaderClaim,
  LeaderTermEnd,
} from "../../core/types.ts";
import {
  assertUnchangedWithinLimit,
  type AssignmentImage,
  type Fence,
  MAX_UNCHANGED_EXECUTORS,
  type NamespaceEvent,
  type NamespaceEventBatch,
  type NamespaceSnapshot,
  type NamespaceWatchOptions,
  type Store,
  type StoreLimits,
  type Versioned,
} from "../store.ts";
import { EmbeddedDefinitions } from "./embedded_definitions.ts";
import type {
  OperatorGuard,
  OperatorWrite,
  OperatorWriteOutcome,
  RequestRetention,
} from "../operator_write.ts";
import type { HistoryEvent } from "../../core/history_event.ts";
import type { HistoryQuery } from "../history_store.ts";
import { OperatorRequests } from "./operator_requests.ts";
import type { BrakeRecord } from "../brake_store.ts";
import { MemoryHistory } from "./memory_history.ts";
import { Journal } from "./journal.ts";
import { NamespaceFeed } from "./namespace_feed.ts";
import { NamespaceModel } from "./namespace_model.ts";
import { EmbeddedFormat } from "./embedded_format.ts";

/** Journal lines after which the journal is folded into a snapshot. */
export const COMPACT_AFTER_LINES = 20_000;

/** The embedded engine behind both embedded ports. */
export class EmbeddedStore implements Store {
  /** What one call can take. */
  readonly limits: StoreLimits = { maxUnchangedExecutors: MAX_UNCHANGED_EXECUTORS };
  #journal: Journal;
  #revision: number;
  #models: Map<string, NamespaceModel>;
  #feeds = new Map<string, NamespaceFeed>();
  #closed = false;
  #compactAfterLines: number;
  #definitions: EmbeddedDefinitions | undefined;
  /** The format record, `<dataDir>/format.json` (set by `open`). */
  format!: EmbeddedFormat;
  /** Applied operator request ids and executor-drain revisions (in memory). */
  readonly #requests = new OperatorRequests();
  /** History per namespace (in memory: kept for the process's life). */
  readonly #history = new MemoryHistory();
  /** Brake records per namespace (in memory, like the history: one process has no failover). */
  readonly #brakes = new Map<string, BrakeRecord>();

  private constructor(
    journal: Journal,
    revision: number,
    models: Map<string, NamespaceModel>,
    compactAfterLines: number,
  ) {
    this.#journal = journal;
    this.#revision = revision;
    this.#models = models;
    this.#compactAfterLines = compactAfterLines;
  }

  /**
   * Opens the store in `dataDir` (created if missing). The journal is folded
   * into a snapshot every `compactAfterLines` lines (default
   * {@linkcode COMPACT_AFTER_LINES}) and on close.
   */
  static async open(
    dataDir: string,
    options: { readonly compactAfterLines?: number } = {},
  ): Promise<EmbeddedStore> {
    const { journal, revision, models } = await Journal.open(dataDir);
    const store = new EmbeddedStore(
      journal,
      revision,
      models,
      options.compactAfterLines ?? COMPACT_AFTER_LINES,
    );
    const definitions = store.#definitions = await EmbeddedDefinitions.open(dataDir, {
      next: () => store.nextRevision(),
      current: () => store.#revision,
    });
    // Revisions keep growing past the definitions' (their writes are not journaled).
    const { definitions: stored } = await definitions.loadDefinitions();
    for (const d of stored.values()) store.#revision = Math.max(store.#revision, d.revision);
    const empty = store.#revision === 0;
    store.format = new EmbeddedFormat(dataDir, () => empty);
    return store;
  }

  /** Namespace definitions, in `<dataDir>/definitions.json`. */
  get definitions(): EmbeddedDefinitions {
    return this.#definitions!;
  }

  /** The latest revision; also advanced by elections so that terms keep growing. */
  nextRevision(): number {
    return ++this.#revision;
  }

  /** Reads a namespace. */
  loadNamespace(namespace: string): Promise<NamespaceSnapshot> {
    return Promise.resolve(this.#model(namespace).snapshot(this.#revision));
  }

  /** Streams a namespace's changes after `afterRevision` (in memory: it never loses its connection). */
  watchNamespace(
    namespace: string,
    afterRevision: number,
    signal: AbortSignal,
    _options?: NamespaceWatchOptions,
  ): ReadableStream<NamespaceEventBatch> {
    return this.#feed(namespace).watch(afterRevision, signal);
  }

  /** Writes executors' state in one revision. */
  writeExecutors(namespace: string, writes: readonly ExecutorWrite[]): Promise<number> {
    const events: NamespaceEvent[] = [];
    for (const w of writes) {
      if (w.metadata) {
        events.push({ type: "metadata", executorId: w.executorId, metadata: w.metadata });
      }
      if (w.reports) events.push({ type: "reports", executorId: w.executorId, reports: w.reports });
      events.push({ type: "heartbeat", executorId: w.executorId, record: w.heartbeat });
    }
    return this.#commit(namespace, events);
  }

  /** Records requests for ephemeral shards. */
  requestShards(namespace: string, shardKeys: readonly string[]): Promise<number> {
    return this.#commit(
      namespace,
      [...new Set(shardKeys)].map((shardKey) => ({ type: "requested", shardKey, requested: true })),
    );
  }

  /** Drains or undrains shards, a drain with its reason when given. */
  setDrained(
    namespace: string,
    shardKeys: readonly string[],
    drained: boolean,
    reason?: string,
  ): Promise<number> {
    const model = this.#model(namespace);
    const keys = [...new Set(shardKeys)].filter((k) => drained || model.drained.has(k));
    const why = drained && reason ? { reason } : {};
    return this.#commit(
      namespace,
      keys.map((shardKey) => ({ type: "drained", shardKey, drained, ...why })),
    );
  }

  /** Drains shards with `reason` while `fence` holds the namespace. */
  // deno-lint-ignore require-await -- async so that a refusal is a rejection
  async drainFenced(fence: Fence, shardKeys: readonly string[], reason: string): Promise<number> {
    this.#fenced(fence, "the leader's drain was refused");
    return this.setDrained(fence.namespace, shardKeys, true, reason);
  }

  /** The namespace's brake record (in memory). */
  readBrake(namespace: string): Promise<BrakeRecord | undefined> {
    return Promise.resolve(this.#brakes.get(namespace));
  }

  /** Replaces the brake record while `fence` holds the namespace. */
  // deno-lint-ignore require-await -- async so that a refusal is a rejection
  async writeBrake(fence: Fence, record: BrakeRecord): Promise<void> {
    this.#fenced(fence, "the brake record was refused");
    this.#brakes.set(fence.namespace, record);
  }

  /** Stores an executor drain. */
  putExecutorDrain(namespace: string, drain: ExecutorDrain): Promise<number> {
    return this.#commit(namespace, [{ type: "executor_drain", id: drain.id, drain }]);
  }

  /** Removes an executor drain. */
  deleteExecutorDrain(namespace: string, id: string): Promise<number> {
    const exists = this.#model(namespace).executorDrains.has(id);
    return this.#commit(namespace, exists ? [{ type: "executor_drain", id }] : []);
  }

  /**
   * Applies an operator's write under `guard`. Request ids are kept in memory,
   * so they are forgotten on restart (the embedded store serves one process).
   */
  applyOperatorWrite(
    namespace: string,
    write: OperatorWrite,
    guard: OperatorGuard,
  ): Promise<OperatorWriteOutcome> {
    return this.#requests.apply(
      {
        revision: () => this.#revision,
        setDrained: (ns, keys, drained) => this.setDrained(ns, keys, drained),
        putExecutorDrain: (ns, drain) => this.putExecutorDrain(ns, drain),
        deleteExecutorDrain: (ns, id) => this.deleteExecutorDrain(ns, id),
        resetNamespace: (ns) => this.resetNamespace(ns),
      },
      namespace,
      write,
      guard,
    );
  }

  /** Appends history events (in memory). */
  appendHistory(namespace: string, events: readonly HistoryEvent[]): Promise<void> {
    this.#history.append(namespace, events);
    return Promise.resolve();
  }

  /** Reads history events, oldest first. */
  readHistory(namespace: string, query: HistoryQuery): Promise<HistoryEvent[]> {
    return Promise.resolve(this.#history.read(namespace, query));
  }

  /** Trims history by age and count. */
  trimHistory(namespace: string, beforeMs: number, keep: number): Promise<number> {
    return Promise.resolve(this.#history.trim(namespace, beforeMs, keep));
  }

  /** Namespaces with any history (deleted ones too), sorted. */
  historyNamespaces(): Promise<string[]> {
    return Promise.resolve(this.#history.namespaces());
  }

  /** Forgets applied request ids beyond `retention`. */
  pruneOperatorRequests(namespace: string, retention: RequestRetention): Promise<number> {
    return Promise.resolve(this.#requests.prune(namespace, retention));
  }

  /** Claims the namespace for `claim.term`, refusing when the stored term is not older. */
  async claimLeadership(namespace: string, claim: LeaderClaim): Promise<Fence> {
    const current = this.#model(namespace).leader;
    if (current && current.claim.term >= claim.term) {
      throw new FencedError(namespace, `a newer term than ${claim.term} holds it`);
    }
    const revision = await this.#commit(namespace, [{ type: "leader", claim }]);
    return { namespace, claim, revision, ...(current ? { previous: current.claim } : {}) };
  }

  /** Marks the claim handed over, only while `fence` still holds it. */
  async endLeadership(fence: Fence, end: LeaderTermEnd): Promise<void> {
    this.#fenced(fence, "the handover was refused");
    await this.#commit(fence.namespace, [{
      type: "leader",
      claim: { ...fence.claim, ended: end },
    }]);
  }

  /** Commits change `seq`. */
  async commitAssignment(
    fence: Fence,
    seq: number,
    delta: AssignmentDelta,
    unchanged: readonly Versioned[] = [],
  ): Promise<number> {
    assertUnchangedWithinLimit(unchanged);
    const model = this.#fenced(fence, `assignment change ${seq} was refused`);
    const heard = unchanged.some((e) =>
      (model.executors.get(e.id)?.heartbeatRevision ?? 0) !== e.revision
    );
    if (model.seq !== seq - 1 || heard) {
      throw new FencedError(fence.namespace, `assignment change ${seq} was refused`);
    }
    return await this.#commit(fence.namespace, [{ type: "assignment", seq, delta }]);
  }

  /** Nothing to fold in memory; checks the fence and the head like etcd does. */
  // deno-lint-ignore require-await -- async so that a refusal is a rejection
  async compactAssignment(fence: Fence, seq: number, _image: AssignmentImage): Promise<number> {
    const model = this.#fenced(fence, `snapshot at change ${seq} was refused`);
    if (model.seq !== seq) {
      throw new FencedError(fence.namespace, `snapshot at change ${seq} was refused`);
    }
    return this.#revision;
  }

  /** Each executor's heartbeat record revision (0 when it has none). */
  heartbeatRevisions(
    namespace: string,
    executorIds: readonly string[],
  ): Promise<Map<string, number>> {
    const model = this.#model(namespace);
    return Promise.resolve(
      new Map(executorIds.map((id) => [id, model.executors.get(id)?.heartbeatRevision ?? 0])),
    );
  }

  /** Removes executors still at their heartbeat revision; a stale fence removes nothing. */
  async removeExecutors(fence: Fence, executors: readonly Versioned[]): Promise<void> {
    const model = this.#model(fence.namespace);
    if (model.leader?.revision !== fence.revision) return;
    const events: NamespaceEvent[] = executors
      .filter((e) => model.executors.get(e.id)?.heartbeatRevision === e.revision)
      .map((e) => ({ type: "executor_removed", executorId: e.id }));
    await this.#commit(fence.namespace, events);
  }

  /** Removes shard requests still at their revision; a stale fence removes nothing. */
  async clearRequests(fence: Fence, requests: readonly Versioned[]): Promise<void> {
    const model = this.#model(fence.namespace);
    if (model.leader?.revision !== fence.revision) return;
    const events: NamespaceEvent[] = requests
      .filter((r) => model.requested.get(r.id) === r.revision)
      .map((r) => ({ type: "requested", shardKey: r.id, requested: false }));
    await this.#commit(fence.namespace, events);
  }

  /** Deletes everything of one namespace. */
  async resetNamespace(namespace: string): Promise<number> {
    this.#brakes.delete(namespace);
    const model = this.#models.get(namespace);
    if (!model || model.empty) return 0;
    const deleted = model.keyCount();
    this.#models.delete(namespace);
    const revision = this.nextRevision();
    await this.#journal.append({ r: revision, ns: namespace, reset: true });
    this.#feed(namespace).publish({
      revision,
      events: [{ type: "resync", reason: "the namespace was reset" }],
    });
    return deleted;
  }

  /** Always reachable while open: it lives in this process. */
  ping(): Promise<void> {
    return this.#closed
      ? Promise.reject(new Error("the embedded store is closed"))
      : Promise.resolve();
  }

  /** Writes a final snapshot and releases the data directory. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#journal.compact(this.#revision, this.#models);
    await this.#journal.close();
  }

  #model(namespace: string): NamespaceModel {
    let model = this.#models.get(namespace);
    if (!model) this.#models.set(namespace, model = new NamespaceModel());
    return model;
  }

  #feed(namespace: string): NamespaceFeed {
    let feed = this.#feeds.get(namespace);
    if (!feed) this.#feeds.set(namespace, feed = new NamespaceFeed(this.#revision));
    return feed;
  }

  #fenced(fence: Fence, what: string): NamespaceModel {
    const model = this.#model(fence.namespace);
    if (model.leader?.revision !== fence.revision) throw new FencedError(fence.namespace, what);
    return model;
  }

  /** Applies `events` as one revision, makes it durable, then streams it. */
  async #commit(namespace: string, events: readonly NamespaceEvent[]): Promise<number> {
    if (this.#closed) throw new Error("the embedded store is closed");
    if (events.length === 0) return this.#revision;
    const model = this.#model(namespace);
    const revision = this.nextRevision();
    for (const event of events) model.apply(event, revision);
    const feed = this.#feed(namespace);
    const written = this.#journal.append({ r: revision, ns: namespace, e: events });
    if (this.#journal.lines >= this.#compactAfterLines) {
      void this.#journal.compact(this.#revision, this.#models).catch(() => {});
    }
    await written;
    feed.publish({ revision, events });
    return revision;
  }
}
