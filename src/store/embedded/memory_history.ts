/**
 * The embedded store's namespace history: kept in memory for the process's
 * life, per namespace, in id order.
 *
 * @module
 */
import type { HistoryEvent } from "../../core/history_event.ts";
import type { HistoryQuery } from "../history_store.ts";

/**
 * History events by namespace, in memory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryHistory } from "./memory_history.ts";
 *
 * const history = new MemoryHistory();
 * const event = (id: string, atMs: number) =>
 *   ({ id, atMs, type: "leader_changed", text: id }) as Parameters<MemoryHistory["append"]>[1][0];
 * history.append("ns", [event("b", 2), event("a", 1)]);
 * assert.deepEqual(history.read("ns", { limit: 10 }).map((e) => e.id), ["a", "b"]);
 * assert.equal(history.trim("ns", 2, 10), 1);
 * assert.deepEqual(history.read("ns", { limit: 10 }).map((e) => e.id), ["b"]);
 * ```
 */
export class MemoryHistory {
  readonly #logs = new Map<string, HistoryEvent[]>();

  /** Adds `events`, keeping the namespace's log in id order. */
  append(namespace: string, events: readonly HistoryEvent[]): void {
    let log = this.#logs.get(namespace);
    if (!log) this.#logs.set(namespace, log = []);
    log.push(...events);
    log.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The events `query` selects, oldest first. */
  read(namespace: string, query: HistoryQuery): HistoryEvent[] {
    const log = this.#logs.get(namespace) ?? [];
    const after = query.afterId;
    const since = query.sinceMs;
    return log.filter((e) =>
      (after === undefined || e.id > after) && (since === undefined || e.atMs >= since)
    ).slice(0, query.limit);
  }

  /** Drops events before `beforeMs` and all but the last `keep`; returns how many went. */
  trim(namespace: string, beforeMs: number, keep: number): number {
    const log = this.#logs.get(namespace) ?? [];
    const kept = log.filter((e) => e.atMs >= beforeMs).slice(-keep);
    if (kept.length > 0) this.#logs.set(namespace, kept);
    else this.#logs.delete(namespace);
    return log.length - kept.length;
  }

  /** The namespaces with any event, sorted. */
  namespaces(): string[] {
    return [...this.#logs.keys()].sort();
  }
}
