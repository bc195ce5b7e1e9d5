/**
 * Coalescing: which parts of a heartbeat need writing at all.
 *
 * @module
 */
import type { ExecutorWrite, ShardReport } from "../core/types.ts";
import type { KnownExecutor } from "./submission.ts";
import type { Heartbeat } from "./validate_heartbeat.ts";

/** Relative change of a shard's load that is worth a write. */
export const LOAD_TOLERANCE = 0.05;

/** Times that decide whether a liveness write is due. */
export interface WriteTiming {
  /** Wall clock now (recorded in the heartbeat). */
  readonly wallNow: number;
  /** Monotonic now (compared with when the last write was seen). */
  readonly now: number;
  /** A liveness write is skipped when the last one was seen less than this long ago. */
  readonly refreshMs: number;
}

function sameRecord(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** True when reports differ in their set of shards, a status, or a load beyond the tolerance. */
export function reportsDiffer(
  stored: Readonly<Record<string, ShardReport>>,
  fresh: Readonly<Record<string, ShardReport>>,
): boolean {
  const keys = Object.keys(fresh);
  if (keys.length !== Object.keys(stored).length) return true;
  for (const key of keys) {
    const a = stored[key], b = fresh[key]!;
    if (!a || a.status !== b.status) return true;
    const scale = Math.max(Math.abs(a.load), Math.abs(b.load));
    if (scale > 0 && Math.abs(a.load - b.load) > LOAD_TOLERANCE * scale) return true;
  }
  return false;
}

/**
 * The write a heartbeat needs, or undefined when the store already says
 * enough: same status, metadata and reports, and a recent liveness record.
 */
export function decideWrite(
  known: KnownExecutor | undefined,
  heartbeat: Heartbeat,
  timing: WriteTiming,
): ExecutorWrite | undefined {
  const decision = classifyWrite(known, heartbeat, timing);
  return decision?.write;
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
): WriteDecision | undefined {
  const metadataChanged = !known || !sameRecord(known.metadata, heartbeat.metadata);
  const reportsChanged = !known || reportsDiffer(known.reports, heartbeat.reports);
  const statusChanged = !known || known.status !== heartbeat.status;
  const due = statusChanged || timing.now - known.seenAtMs >= timing.refreshMs;
  if (!metadataChanged && !reportsChanged && !due) return undefined;
  return {
    write: {
      executorId: heartbeat.executorId,
      heartbeat: {
        status: heartbeat.status,
        timestampMs: timing.wallNow,
        ...(heartbeat.appliedRevision ? { appliedRevision: heartbeat.appliedRevision } : {}),
      },
      ...(metadataChanged ? { metadata: heartbeat.metadata } : {}),
      ...(reportsChanged ? { reports: heartbeat.reports } : {}),
    },
    refreshOnly: !metadataChanged && !reportsChanged && !statusChanged,
  };
}
