/**
 * What ingestion made of each executor's last accepted reports, by their
 * bytes on the wire. An executor's heartbeats mostly repeat: when the bytes
 * equal the last ones, the reports are neither decoded nor validated again,
 * and when they were found equal to the executor's recorded reports (loads
 * within the write tolerance), the memo holds the recorded object itself, so
 * comparing them next time is one identity check and no second copy of every
 * report stays in memory.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { ShardReports } from "../core/types.ts";

/** Validated reports, as the pipeline and the namespace cache hold them. */
export type Reports = ShardReports;

interface Entry {
  readonly bytes: Uint8Array;
  reports: Reports;
}

/**
 * True when `a` and `b` hold the same bytes. Native comparison: a loop over
 * the bytes in JavaScript took ~46 µs for a heartbeat's 15 KB of reports
 * (1,000 shards), `Buffer.compare` under 1 µs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameBytes } from "./reports_memo.ts";
 *
 * assert.ok(sameBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 2)));
 * assert.ok(!sameBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 3)));
 * assert.ok(!sameBytes(Uint8Array.of(1), Uint8Array.of(1, 0)));
 * ```
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/**
 * Validated reports by executor and wire bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ReportsMemo } from "./reports_memo.ts";
 *
 * const memo = new ReportsMemo();
 * const reports = new Map([["1", { status: "READY", load: 1 }]] as const);
 * memo.remember("ns", "e1", Uint8Array.of(1, 2), reports);
 * assert.equal(memo.lookup("ns", "e1", Uint8Array.of(1, 2)), reports);
 * assert.equal(memo.lookup("ns", "e1", Uint8Array.of(1, 3)), undefined);
 * ```
 */
export class ReportsMemo {
  // By namespace, then executor: a key made of both would be a new string per heartbeat.
  #entries = new Map<string, Map<string, Entry>>();
  #size = 0;
  readonly #limit: number;

  /** Keeps at most `limit` executors; past it, starts over (departed executors' entries go). */
  constructor(limit = 200_000) {
    this.#limit = limit;
  }

  /** The reports last remembered for the executor under exactly these bytes. */
  lookup(namespace: string, executorId: string, bytes: Uint8Array): Reports | undefined {
    const entry = this.#entries.get(namespace)?.get(executorId);
    return entry && sameBytes(entry.bytes, bytes) ? entry.reports : undefined;
  }

  /** Remembers `reports` as what `bytes` mean for the executor. */
  remember(namespace: string, executorId: string, bytes: Uint8Array, reports: Reports): void {
    let executors = this.#entries.get(namespace);
    const entry = executors?.get(executorId);
    if (entry && sameBytes(entry.bytes, bytes)) {
      entry.reports = reports;
      return;
    }
    if (!entry && this.#size >= this.#limit) {
      this.#entries.clear();
      this.#size = 0;
      executors = undefined;
    }
    if (!executors) this.#entries.set(namespace, executors = new Map());
    if (!entry) this.#size++;
    executors.set(executorId, { bytes, reports });
  }

  /** Forgets the executor (its reports could not be recorded as decoded). */
  forget(namespace: string, executorId: string): void {
    if (this.#entries.get(namespace)?.delete(executorId)) this.#size--;
  }

  /** How many executors are remembered. */
  get size(): number {
    return this.#size;
  }
}
