/**
 * The classify stage of heartbeat ingestion: per executor in a batch, a full
 * write now or a liveness renewal for the refresh stage. Every answered
 * heartbeat is recorded one way or the other: staleness is judged from the
 * records an instance sees, so one left unwritten would let its executor
 * expire before the TTL has passed since that answer.
 *
 * @module
 */
import { type Clock, systemClock } from "../core/clock.ts";
import type { ExecutorWrite } from "../core/types.ts";
import { classifyWrite } from "./decide_write.ts";
import type { ReportsMemo } from "./reports_memo.ts";
import { type Pending, type Submission, unrecorded } from "./submission.ts";

/** The full writes of one namespace in a round, and who waits for them. */
export interface NamespaceWrites {
  /** Namespace. */
  readonly namespace: string;
  /** What to write now (at most one per executor). */
  readonly writes: readonly ExecutorWrite[];
  /** Submissions settled once the writes are done (also those that needed none). */
  readonly waiting: readonly Pending[];
}

/** One batch of heartbeats, classified. */
export interface WriteRound {
  /** Heartbeats in the batch. */
  readonly heartbeats: number;
  /** Per namespace with anything to write or anyone waiting. */
  readonly namespaces: readonly NamespaceWrites[];
}

/** Where liveness renewals go (the refresh stage, `RefreshBuffer`). */
export interface Renewals {
  /** Queues a renewal; a later one of the same executor replaces it. */
  add(namespace: string, write: ExecutorWrite): void;
  /** Drops a queued renewal that a full write supersedes. */
  drop(namespace: string, executorId: string): void;
  /** Why the last flush failed, if it did. */
  readonly failure: unknown;
}

/** Options of {@linkcode classifyWrites} and {@linkcode classifyBatch}. */
export interface ClassifyOptions {
  /** Where renewals go. */
  readonly renewals: Renewals;
  /** Whether the store answers; renewals are refused while it does not. @default {always true} */
  readonly storeReachable?: () => boolean;
  /** Time source. @default {systemClock} */
  readonly clock?: Clock;
  /**
   * Where unchanged reports are remembered as the executor's recorded object
   * (see reports_memo.ts), so the next heartbeat with the same bytes compares
   * by identity. @default {nothing remembered}
   */
  readonly memo?: ReportsMemo;
}

/**
 * Classifies the batches of `batches` one at a time, each only when the next
 * stage asks for a round (the stream is pulled, `highWaterMark` 0). So a batch
 * is taken from `BatchQueue` only once the previous round is written, and is
 * judged against the cache as that write left it: heartbeats coalesce for
 * exactly as long as a write is in flight. (A `TransformStream` would not do:
 * its writable side takes one batch ahead.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyWrites } from "./classify_writes.ts";
 * import type { Submission } from "./submission.ts";
 *
 * const renewals = { add() {}, drop() {}, failure: undefined };
 * const submission: Submission = {
 *   heartbeat: { namespace: "ns", executorId: "e1", status: "ACTIVE", reports: new Map(), metadata: {} },
 *   namespace: { executor: () => undefined, recordEvery: false },
 *   resolve: () => {},
 *   reject: () => {},
 * };
 * const rounds = classifyWrites(ReadableStream.from([[submission]]), { renewals });
 * const [round] = await Array.fromAsync(rounds);
 * assert.equal(round?.namespaces[0]?.writes[0]?.executorId, "e1"); // new: written in full
 * ```
 */
export function classifyWrites(
  batches: ReadableStream<Submission[]>,
  options: ClassifyOptions,
): ReadableStream<WriteRound> {
  const reader = batches.getReader();
  return new ReadableStream<WriteRound>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      controller.enqueue(classifyBatch(value, options));
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 });
}

/**
 * Classifies one batch. Per executor, its latest heartbeat decides: a change
 * (or a new executor, or an exclusive namespace) is a full write, and every
 * submission of that executor waits for it; a renewal alone goes to
 * `renewals` and its submissions resolve now (or are refused, UNAVAILABLE,
 * while the store is unreachable).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyBatch } from "./classify_writes.ts";
 *
 * const added: string[] = [];
 * const renewals = { add: (_: string, w: { executorId: string }) => added.push(w.executorId), drop() {}, failure: undefined };
 * const known = { status: "ACTIVE" as const, seenAtMs: 0, metadata: {}, reports: new Map() };
 * let resolved = false;
 * const round = classifyBatch([{
 *   heartbeat: { namespace: "ns", executorId: "e1", status: "ACTIVE", reports: new Map(), metadata: {} },
 *   namespace: { executor: () => known, recordEvery: false },
 *   resolve: () => resolved = true,
 *   reject: () => {},
 * }], { renewals, clock: { now: () => 5_000, monotonic: () => 5_000 } });
 * assert.deepEqual(added, ["e1"]); // a renewal: nothing else changed
 * assert.equal(resolved, true);
 * assert.deepEqual(round.namespaces, []);
 * ```
 */
export function classifyBatch(
  batch: readonly Submission[],
  options: ClassifyOptions,
): WriteRound {
  const clock = options.clock ?? systemClock;
  const { renewals } = options;
  const byNamespace = new Map<string, Map<string, Submission[]>>();
  for (const s of batch) {
    let executors = byNamespace.get(s.heartbeat.namespace);
    if (!executors) byNamespace.set(s.heartbeat.namespace, executors = new Map());
    const list = executors.get(s.heartbeat.executorId);
    if (list) list.push(s);
    else executors.set(s.heartbeat.executorId, [s]);
  }
  const namespaces: NamespaceWrites[] = [];
  for (const [namespace, executors] of byNamespace) {
    const writes: ExecutorWrite[] = [];
    const waiting: Pending[] = [];
    for (const [executorId, submissions] of executors) {
      const latest = submissions[submissions.length - 1]!;
      const record = latest.namespace.recordEvery;
      const known = latest.namespace.executor(executorId);
      const decision = classifyWrite(known, latest.heartbeat, { wallNow: clock.now() });
      const bytes = latest.reportsBytes;
      if (known && bytes && !record && decision.write.reports === undefined) {
        // Equal to the record within the tolerance: next time, the record itself stands for them.
        options.memo?.remember(namespace, executorId, bytes, known.reports);
      }
      if (decision.refreshOnly && !record) {
        renewals.add(namespace, decision.write);
        if (options.storeReachable?.() === false) {
          const failure = unrecorded(renewals.failure ?? "the store is unreachable");
          for (const s of submissions) s.reject(failure);
        } else {
          for (const s of submissions) s.resolve();
        }
        continue;
      }
      renewals.drop(namespace, executorId);
      // Exclusive namespaces: the reports are written with every heartbeat, because
      // whether they changed is judged from this instance's cache, which may lag, and a
      // handover is confirmed by the reports stored with a heartbeat record.
      writes.push(
        record ? { ...decision.write, reports: latest.heartbeat.reports } : decision.write,
      );
      for (const s of submissions) waiting.push(s);
    }
    if (writes.length > 0 || waiting.length > 0) namespaces.push({ namespace, writes, waiting });
  }
  return { heartbeats: batch.length, namespaces };
}
