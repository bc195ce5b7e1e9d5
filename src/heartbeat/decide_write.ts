/**
 * Coalescing: which parts of a heartbeat need writing, and whether the write
 * may wait for the next flush of renewals (`refresh_buffer.ts`).
 *
 * @module
 */
import type { ExecutorWrite, KeyLoad, ShardReports } from "../core/types.ts";
import type { KnownExecutor } from "./submission.ts";
import type { Heartbeat } from "./validate_heartbeat.ts";

/** Relative change of a shard's load that is worth a write. */
export const LOAD_TOLERANCE = 0.05;

/** When a heartbeat is recorded. */
export interface WriteTiming {
  /** Wall clock now (recorded in the heartbeat). */
  readonly wallNow: number;
}

function sameRecord(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/**
 * True when reports differ in their set of shards, a status, a count of
 * failed starts (poison shards), or a load beyond the tolerance.
 */
export function reportsDiffer(
  stored: ShardReports,
  fresh: ShardReports,
): boolean {
  if (stored === fresh) return false;
  if (fresh.size !== stored.size) return true;
  for (const [key, b] of fresh) {
    const a = stored.get(key);
    if (a === b) continue;
    if (!a || a.status !== b.status) return true;
    if ((a.failedStarts ?? 0) !== (b.failedStarts ?? 0)) return true;
    if ((a.topKeys || b.topKeys) && topKeysDiffer(a.topKeys ?? [], b.topKeys ?? [])) return true;
    const scale = Math.max(Math.abs(a.load), Math.abs(b.load));
    if (scale > 0 && Math.abs(a.load - b.load) > LOAD_TOLERANCE * scale) return true;
  }
  return false;
}

/**
 * The write a heartbeat needs: always its liveness record (a heartbeat that is
 * answered is recorded: staleness is judged from the records an instance
 * sees, so one left unwritten would let its executor expire before the TTL
 * has passed since that answer), plus its metadata and reports when they
 * changed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decideWrite } from "./decide_write.ts";
 *
 * const hb = { namespace: "ns", executorId: "e1", status: "ACTIVE", metadata: {}, reports: new Map() } as const;
 * assert.deepEqual(decideWrite(undefined, hb, { wallNow: 5 }).heartbeat, {
 *   status: "ACTIVE",
 *   timestampMs: 5,
 * });
 * ```
 */
export function decideWrite(
  known: KnownExecutor | undefined,
  heartbeat: Heartbeat,
  timing: WriteTiming,
): ExecutorWrite {
  return classifyWrite(known, heartbeat, timing).write;
}

/** A write and whether it may wait: a liveness refresh may, anything else may not. */
export interface WriteDecision {
  /** What to write. */
  readonly write: ExecutorWrite;
  /** Only the liveness record, unchanged but for its timestamp: it can be written later. */
  readonly refreshOnly: boolean;
}

/**
 * Like {@linkcode decideWrite}, and says whether the write is only a
 * liveness refresh (same status, metadata and reports), which need not delay
 * the heartbeat's answer.
 */
export function classifyWrite(
  known: KnownExecutor | undefined,
  heartbeat: Heartbeat,
  timing: WriteTiming,
): WriteDecision {
  const metadataChanged = !known || !sameRecord(known.metadata, heartbeat.metadata);
  const reportsChanged = !known || reportsDiffer(known.reports, heartbeat.reports);
  const statusChanged = !known || known.status !== heartbeat.status ||
    known.statusNumber !== heartbeat.statusNumber ||
    known.warmHandover !== heartbeat.warmHandover ||
    known.incarnation !== heartbeat.incarnation;
  return {
    write: {
      executorId: heartbeat.executorId,
      heartbeat: {
        status: heartbeat.status,
        ...(heartbeat.statusNumber === undefined ? {} : { statusNumber: heartbeat.statusNumber }),
        timestampMs: timing.wallNow,
        ...(heartbeat.appliedRevision ? { appliedRevision: heartbeat.appliedRevision } : {}),
        ...(heartbeat.warmHandover ? { warmHandover: true } : {}),
        ...(heartbeat.incarnation ? { incarnation: heartbeat.incarnation } : {}),
      },
      ...(metadataChanged ? { metadata: heartbeat.metadata } : {}),
      ...(reportsChanged ? { reports: heartbeat.reports } : {}),
    },
    refreshOnly: !metadataChanged && !reportsChanged && !statusChanged,
  };
}

/** A slice's top keys changed: another key, or a load beyond the tolerance. */
function topKeysDiffer(a: readonly KeyLoad[], b: readonly KeyLoad[]): boolean {
  if (a.length !== b.length) return true;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!, y = b[i]!;
    if (x.key !== y.key) return true;
    const scale = Math.max(x.load, y.load);
    if (scale > 0 && Math.abs(x.load - y.load) > LOAD_TOLERANCE * scale) return true;
  }
  return false;
}
