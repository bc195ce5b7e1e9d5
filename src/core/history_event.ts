/**
 * The history of a namespace: what happened to it, kept in the store as an
 * event log with bounded retention (docs/operations.md). Executors joining
 * and being lost, operator drains, leader changes, every committed
 * assignment change with its moves per reason, and (exclusive namespaces)
 * executors holding shards they do not run, and running them again.
 *
 * @module
 */

/** Kinds of history events. */
export type HistoryEventType =
  | "executor_joined"
  | "executor_lost"
  | "executor_drained"
  | "executor_undrained"
  | "shards_drained"
  | "shards_undrained"
  | "shards_quarantined"
  | "quarantine_withheld"
  | "leader_changed"
  | "leader_lost"
  | "leader_rotations"
  | "assignment_changed"
  | "shards_not_running"
  | "shards_running_again"
  | "store_unreachable"
  | "store_recovered"
  | "namespace_created"
  | "namespace_updated"
  | "namespace_deleted"
  | "operator_refused"
  | "brake_engaged"
  | "brake_released";

/** One event, before the store gives it an id. */
export interface HistoryEventInput {
  /** What happened. */
  readonly type: HistoryEventType;
  /** When (ms since epoch, the recording instance's clock). */
  readonly atMs: number;
  /** The executor concerned, if one is. */
  readonly executorId?: string;
  /** The drain concerned (`id:...` or `selector:...`), for executor drains. */
  readonly drainId?: string;
  /** The shards concerned: for shard drains, and the shards not running (at most 100). */
  readonly shardKeys?: readonly string[];
  /** The instance that recorded it (for leader changes: the new leader). */
  readonly instanceId?: string;
  /** The leader's term, for leader changes and assignment changes. */
  readonly term?: number;
  /** Shards that changed owner, for assignment changes. */
  readonly moves?: number;
  /** The same, per reason (`stale`, `operator_drain`, `rebalance`, `placed`, ...). */
  readonly movesByReason?: Readonly<Record<string, number>>;
  /**
   * Why, in a word or a few: how a term ended (`lease_expired`, `fenced`,
   * `handed_over`, `not_handed_over`), the refusal of an operator call.
   */
  readonly reason?: string;
  /**
   * Who asked, for operator changes and refusals: the token's name or the
   * client certificate's subject, or `anonymous (<peer>)` without security.
   */
  readonly actor?: string;
  /** The operator call, for refusals (`DrainExecutors`, ...). */
  readonly method?: string;
  /** One line per changed field, for namespace updates. */
  readonly changes?: readonly string[];
  /** How long it lasted (ms), for store outages. */
  readonly durationMs?: number;
  /** One line for people. */
  readonly text: string;
}

/** A stored event. */
export interface HistoryEvent extends HistoryEventInput {
  /** Sortable id, unique within the namespace: later events have greater ids. */
  readonly id: string;
}

/** How long and how much history is kept per namespace. */
export interface HistoryRetention {
  /** Events older than this (ms) are dropped. */
  readonly maxAgeMs: number;
  /** At most this many events are kept (the newest). */
  readonly maxEvents: number;
}

/** The default retention: a day, and 2000 events. */
export const DEFAULT_HISTORY_RETENTION: HistoryRetention = Object.freeze({
  maxAgeMs: 24 * 60 * 60 * 1000,
  maxEvents: 2_000,
});

/**
 * A sortable event id from its time and a per-writer suffix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyEventId } from "./history_event.ts";
 *
 * assert.ok(historyEventId(2, "a", 0) > historyEventId(1, "z", 9));
 * ```
 */
export function historyEventId(atMs: number, writer: string, counter: number): string {
  return `${String(Math.max(0, Math.floor(atMs))).padStart(15, "0")}-${writer}-${
    String(counter).padStart(6, "0")
  }`;
}
