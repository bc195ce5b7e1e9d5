/**
 * The heartbeat as one unit: {@linkcode Heartbeats} is everything the
 * transport asks of it, and {@linkcode HeartbeatResponder} does it in three
 * steps:
 *
 * 1. **record**: validate the heartbeat and record it (heartbeat_ingest.ts);
 * 2. **wait** (exclusive namespaces): for a picture of the namespace at least
 *    as new as the heartbeat's own record, so that a shard moved away before
 *    the record was written is never handed back (docs/ownership.md);
 * 3. **answer**: the executor's shards from that picture
 *    (heartbeat_answers.ts).
 *
 * The namespaces come through a port ({@linkcode HeartbeatNamespaces}), so
 * this folder knows nothing of how the service keeps them.
 *
 * @module
 */
import { NamespaceNotFoundError } from "../core/errors.ts";
import type { NamespaceView } from "../state/namespace_view.ts";
import { type HeartbeatAnswer, heartbeatAnswer } from "./heartbeat_answers.ts";
import { HeartbeatIngest, type HeartbeatIngestOptions } from "./heartbeat_ingest.ts";
import type { ExecutorStore } from "./store_sink.ts";
import type { IngestNamespace } from "./submission.ts";
import type { RawHeartbeat } from "./validate_heartbeat.ts";

/** What the transport can ask of the heartbeat: one entry. */
export interface Heartbeats {
  /**
   * Validates and records `raw`, then answers with the executor's shards;
   * rejects with INVALID_ARGUMENT, NOT_FOUND or UNAVAILABLE errors.
   */
  handle(raw: RawHeartbeat): Promise<HeartbeatAnswer>;
}

/** A namespace's ownership as the heartbeat answers it (the policy's `ownership`). */
export type HeartbeatOwnership =
  | { readonly mode: "available" }
  | { readonly mode: "exclusive"; readonly leaseMs: number };

/** A served namespace as the heartbeat needs it: to record, to wait and to answer. */
export interface HeartbeatNamespace extends IngestNamespace {
  /** The namespace's picture as this instance follows it now. */
  readonly view: NamespaceView;
  /** Who may run a shard: any owner (available), or one at a time under a lease (exclusive). */
  readonly ownership: HeartbeatOwnership;
  /** Aborts when this namespace's runtime stops (its definition changed, or it was deleted). */
  readonly lifetime: AbortSignal;
  /** Resolves once the followed picture is at `revision` or newer; rejects when `signal` aborts. */
  waitForRevision(revision: number, signal: AbortSignal): Promise<void>;
}

/** Finds the namespace a heartbeat names; undefined when this instance does not serve it. */
export type HeartbeatNamespaces = (namespace: string) => HeartbeatNamespace | undefined;

/** Options of {@linkcode HeartbeatResponder}: those of the ingestion pipeline, and the namespaces. */
export interface HeartbeatResponderOptions extends Omit<HeartbeatIngestOptions, "namespaces"> {
  /** The namespaces this instance serves; a heartbeat for another fails with NOT_FOUND. */
  readonly namespaces: HeartbeatNamespaces;
  /**
   * The instance's stop: ends waits for a picture (the pipeline itself is
   * drained by {@linkcode HeartbeatResponder.close}, not cancelled).
   * @default {never aborts}
   */
  readonly stop?: AbortSignal;
}

/**
 * Records heartbeats, waits for the picture an exclusive namespace's answer
 * must come from, and answers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { silentLogger } from "../core/logger.ts";
 * import { NamespaceState } from "../state/namespace_state.ts";
 * import { HeartbeatResponder } from "./heartbeats.ts";
 *
 * const view = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
 * view.apply({
 *   revision: 3,
 *   events: [{ type: "assignment", seq: 3, delta: { assign: { e1: ["s1"] }, unassign: [], remove: [] } }],
 * }, 0);
 * const ns = {
 *   view,
 *   ownership: { mode: "available" } as const, // answered at once
 *   lifetime: new AbortController().signal,
 *   waitForRevision: () => Promise.resolve(),
 *   executor: () => undefined,
 *   recordEvery: false,
 * };
 * const heartbeats = new HeartbeatResponder({ writeExecutors: () => Promise.resolve(7) }, {
 *   namespaces: (name) => name === "ns" ? ns : undefined,
 *   flushMs: 250,
 *   logger: silentLogger,
 * });
 * const raw = { namespace: "ns", executorId: "e1", status: "ACTIVE", reports: {}, metadata: {} };
 * const answer = await heartbeats.handle(raw);
 * assert.deepEqual(answer.shards(), [{ shardKey: "s1", fencingToken: 3 }]);
 * await assert.rejects(heartbeats.handle({ ...raw, namespace: "other" }), /other/);
 * await heartbeats.close();
 * ```
 */
export class HeartbeatResponder implements Heartbeats {
  readonly #ingest: HeartbeatIngest;
  readonly #namespaces: HeartbeatNamespaces;
  readonly #stop: AbortSignal;

  /** Starts the ingestion pipeline writing to `store`. */
  constructor(store: ExecutorStore, options: HeartbeatResponderOptions) {
    const { stop, ...ingest } = options;
    this.#ingest = new HeartbeatIngest(store, ingest);
    this.#namespaces = options.namespaces;
    this.#stop = stop ?? new AbortController().signal;
  }

  /** Records a heartbeat and answers with the executor's shards. */
  async handle(raw: RawHeartbeat): Promise<HeartbeatAnswer> {
    const revision = await this.#ingest.submit(raw); // validates it, namespace included
    let ns = this.#namespace(raw.namespace);
    const exclusive = ns.ownership.mode === "exclusive";
    // Exclusive: answer from a picture at least as new as this heartbeat's own record, so
    // that a shard moved away before it was written is never handed back (docs/ownership.md).
    if (exclusive && revision !== undefined) {
      const stop = this.#stop;
      try {
        await ns.waitForRevision(revision, AbortSignal.any([stop, ns.lifetime]));
      } catch (error) {
        if (stop.aborted) throw error;
        // The namespace's definition changed meanwhile: wait on its new runtime.
        ns = this.#namespace(raw.namespace);
        await ns.waitForRevision(revision, stop);
      }
    }
    const { ownership } = ns;
    const leaseMs = ownership.mode === "exclusive" ? ownership.leaseMs : undefined;
    return heartbeatAnswer(ns.view, raw.executorId, leaseMs);
  }

  /** Stops taking heartbeats and waits for queued ones (and buffered refreshes) to be written. */
  close(): Promise<void> {
    return this.#ingest.close();
  }

  #namespace(name: string): HeartbeatNamespace {
    const ns = this.#namespaces(name);
    if (!ns) throw new NamespaceNotFoundError(name);
    return ns;
  }
}
