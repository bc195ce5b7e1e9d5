/**
 * The history port: a namespace's event log, kept apart from its state (a
 * force reset keeps it).
 *
 * @module
 */
import type { HistoryEvent } from "../core/history_event.ts";

/** Which events to read. */
export interface HistoryQuery {
  /** Only events with a greater id (a cursor for following). */
  readonly afterId?: string;
  /** Only events at or after this time (ms since epoch). */
  readonly sinceMs?: number;
  /** At most this many, the oldest first. */
  readonly limit: number;
}

/** Appends, reads and trims a namespace's history. */
export interface HistoryStore {
  /** Appends events (their ids given). */
  appendHistory(namespace: string, events: readonly HistoryEvent[]): Promise<void>;
  /** Events matching `query`, oldest first. */
  readHistory(namespace: string, query: HistoryQuery): Promise<HistoryEvent[]>;
  /** Drops events before `beforeMs` and all but the newest `keep`; returns how many. */
  trimHistory(namespace: string, beforeMs: number, keep: number): Promise<number>;
  /**
   * The namespaces that have any history, sorted: deleted ones too, whose
   * history is kept until its retention ends.
   */
  historyNamespaces(): Promise<string[]>;
}
