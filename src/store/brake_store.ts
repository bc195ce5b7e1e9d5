/**
 * The brake port: a namespace's mass-loss brake as its leaders record it
 * (leader/process/mass_loss_brake.ts), so that the next leader continues it:
 * a brake engaged stays engaged across a failover, and an operator's lift
 * stays lifted. One record per namespace, written only by the leader and
 * fenced like its other writes.
 *
 * @module
 */

/** The brake as a leader last recorded it. Times are wall clock (ms since epoch). */
export interface BrakeRecord {
  /** `engaged` while it holds; `lifted` by an operator; `released` when the executors returned. */
  readonly state: "engaged" | "lifted" | "released";
  /** When it engaged. */
  readonly sinceMs: number;
  /** Why it engaged, in words (the `brake_engaged` history note's text). */
  readonly reason: string;
  /** Executors serving just before the loss. */
  readonly executorsBefore: number;
  /** Executors lost and not back when recorded (at most {@linkcode MAX_RECORDED_LOST}). */
  readonly lost: readonly string[];
  /** When it was lifted or released (absent while engaged). */
  readonly endedAtMs?: number;
  /** Who lifted it (state `lifted`). */
  readonly liftedBy?: string;
  /** The leader term that wrote the record. */
  readonly term: number;
}

/** Most lost executor ids a record keeps (a record stays far below etcd's request size). */
export const MAX_RECORDED_LOST = 5_000;

/**
 * What a brake record's writer proves: the namespace and the store revision of
 * its leader claim (a `Fence` of store.ts is one).
 */
export interface BrakeFence {
  /** Namespace led. */
  readonly namespace: string;
  /** Store revision of the leader's claim; the write succeeds only while it is unchanged. */
  readonly revision: number;
}

/** Reads and writes a namespace's brake record. */
export interface BrakeStore {
  /** The namespace's brake record; undefined when none was written (or it is unreadable). */
  readBrake(namespace: string): Promise<BrakeRecord | undefined>;
  /**
   * Replaces the namespace's brake record, only while `fence` holds the
   * namespace (`FencedError` otherwise).
   */
  writeBrake(fence: BrakeFence, record: BrakeRecord): Promise<void>;
}

/**
 * Decodes a stored brake record; undefined for anything that is not one
 * (a damaged value must not stop a leader).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeBrakeRecord } from "./brake_store.ts";
 *
 * const record = {
 *   state: "engaged", sinceMs: 1, reason: "6 of 10 lost", executorsBefore: 10,
 *   lost: ["e1"], term: 3,
 * };
 * assert.deepEqual(decodeBrakeRecord(JSON.stringify(record)), record);
 * assert.equal(decodeBrakeRecord("{"), undefined);
 * assert.equal(decodeBrakeRecord('{"state":"odd"}'), undefined);
 * ```
 */
export function decodeBrakeRecord(text: string): BrakeRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const r = value as Record<string, unknown>;
  const states = ["engaged", "lifted", "released"];
  if (typeof r.state !== "string" || !states.includes(r.state)) return undefined;
  if (!isNumber(r.sinceMs) || !isNumber(r.executorsBefore) || !isNumber(r.term)) return undefined;
  if (typeof r.reason !== "string" || !Array.isArray(r.lost)) return undefined;
  if (!r.lost.every((id) => typeof id === "string")) return undefined;
  return {
    state: r.state as BrakeRecord["state"],
    sinceMs: r.sinceMs,
    reason: r.reason,
    executorsBefore: r.executorsBefore,
    lost: r.lost as string[],
    ...(isNumber(r.endedAtMs) ? { endedAtMs: r.endedAtMs } : {}),
    ...(typeof r.liftedBy === "string" ? { liftedBy: r.liftedBy } : {}),
    term: r.term,
  };
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}
