/**
 * The latest reports each executor sent to this instance, as soon as they are
 * validated and before they are recorded: what an executor runs is known here
 * even while the store cannot record it (a store stall), and a little earlier
 * than any instance sees the record.
 *
 * Kept only for the namespaces whose ingestion asks for it (exclusive ones).
 * Remembering a heartbeat is a few map lookups and field writes: the entry of
 * a known executor is updated in place, and the reports object is the one
 * validation produced, which is the same object heartbeat after heartbeat
 * while the executor's report bytes repeat (reports_memo.ts). Nothing is
 * allocated for a known executor.
 *
 * @module
 */
import type { ShardReports } from "../core/types.ts";
import type { Heartbeat } from "./validate_heartbeat.ts";

/** What one executor last told this instance. */
export interface HeardReport {
  /** Its reports, by shard key. */
  readonly reports: ShardReports;
  /** The `applied_revision` it sent (0 when none). */
  readonly appliedRevision: number;
  /** When this instance validated it (its monotonic clock, ms). */
  readonly heardAtMs: number;
}

interface Entry {
  reports: ShardReports;
  appliedRevision: number;
  heardAtMs: number;
}

/**
 * Executors' latest reports as heard by this instance, by namespace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HeardReports } from "./heard_reports.ts";
 *
 * const heard = new HeardReports();
 * const reports = new Map([["1", { status: "NOT_RUNNING", load: 0 }]] as const);
 * const hb = { namespace: "ns", executorId: "e1", status: "ACTIVE", reports, metadata: {} } as const;
 * heard.heard({ ...hb, appliedRevision: 7 }, 1_000);
 * assert.equal(heard.latest("ns", "e1")?.reports, reports);
 * assert.equal(heard.latest("ns", "e1")?.appliedRevision, 7);
 * heard.forgetBefore("ns", 2_000);
 * assert.equal(heard.latest("ns", "e1"), undefined);
 * ```
 */
export class HeardReports {
  #namespaces = new Map<string, Map<string, Entry>>();

  /** Remembers `heartbeat` as its executor's latest, heard at monotonic `atMs`. */
  heard(heartbeat: Heartbeat, atMs: number): void {
    let executors = this.#namespaces.get(heartbeat.namespace);
    if (executors === undefined) this.#namespaces.set(heartbeat.namespace, executors = new Map());
    const entry = executors.get(heartbeat.executorId);
    const appliedRevision = heartbeat.appliedRevision ?? 0;
    if (entry === undefined) {
      executors.set(heartbeat.executorId, {
        reports: heartbeat.reports,
        appliedRevision,
        heardAtMs: atMs,
      });
      return;
    }
    entry.reports = heartbeat.reports;
    entry.appliedRevision = appliedRevision;
    entry.heardAtMs = atMs;
  }

  /** What the executor last sent to this instance, if it did. */
  latest(namespace: string, executorId: string): HeardReport | undefined {
    return this.#namespaces.get(namespace)?.get(executorId);
  }

  /** The executors of `namespace` heard at or after monotonic `sinceMs`, with what they sent. */
  *heardSince(namespace: string, sinceMs: number): IterableIterator<[string, HeardReport]> {
    const executors = this.#namespaces.get(namespace);
    if (executors === undefined) return;
    for (const [id, entry] of executors) if (entry.heardAtMs >= sinceMs) yield [id, entry];
  }

  /** Forgets the executors of `namespace` last heard before monotonic `beforeMs`. */
  forgetBefore(namespace: string, beforeMs: number): void {
    const executors = this.#namespaces.get(namespace);
    if (executors === undefined) return;
    for (const [id, entry] of executors) if (entry.heardAtMs < beforeMs) executors.delete(id);
    if (executors.size === 0) this.#namespaces.delete(namespace);
  }

  /** Namespaces with executors remembered. */
  namespaces(): IterableIterator<string> {
    return this.#namespaces.keys();
  }
}
