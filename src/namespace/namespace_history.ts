/**
 * Where a namespace's life is told: the port the namespace folder records
 * history through (the service's `HistoryLog` implements it), so that this
 * folder needs nothing from the service above it.
 *
 * @module
 */
import type { HistoryEventInput } from "../core/history_event.ts";

/** An event to record; `atMs` defaults to now. */
export type HistoryEventDraft = Omit<HistoryEventInput, "atMs"> & { readonly atMs?: number };

/** Records events in a namespace's history (best effort: failures are the recorder's to retry). */
export interface NamespaceHistory {
  /** Records `event` in `namespace`'s history. */
  record(namespace: string, event: HistoryEventDraft): Promise<void>;
}
