/**
 * Records and reads a namespace's history (see `core/history_event.ts`).
 * Recording never fails the caller: an event that cannot be written (the
 * store is down) is logged and dropped, as the log is for people, not for
 * correctness. Every so many appends the log is trimmed to its retention.
 *
 * @module
 */
import type { Clock } from "../core/clock.ts";
import {
  DEFAULT_HISTORY_RETENTION,
  type HistoryEvent,
  historyEventId,
  type HistoryEventInput,
  type HistoryRetention,
} from "../core/history_event.ts";
import type { Logger } from "../core/logger.ts";
import type { HistoryQuery, HistoryStore } from "../store/history_store.ts";

/** Appends between trims of one namespace's log. */
const TRIM_EVERY = 50;

/** Most events one read returns. */
export const MAX_HISTORY_READ = 1_000;

/** A namespace history, recorded by this instance. */
export class HistoryLog {
  #store: HistoryStore;
  #clock: Clock;
  #logger: Logger;
  #writer: string;
  #retention: HistoryRetention;
  #counter = 0;
  #sinceTrim = new Map<string, number>();

  /** Writes to `store`; `writer` (this instance) makes ids unique across instances. */
  constructor(
    store: HistoryStore,
    options: {
      readonly clock: Clock;
      readonly logger: Logger;
      readonly writer: string;
      readonly retention?: HistoryRetention;
    },
  ) {
    this.#store = store;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#writer = options.writer.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 64) || "instance";
    this.#retention = options.retention ?? DEFAULT_HISTORY_RETENTION;
  }

  /** Records an event now (in the background); resolves once written or dropped. */
  record(namespace: string, event: Omit<HistoryEventInput, "atMs">): Promise<void> {
    const atMs = this.#clock.now();
    const stored: HistoryEvent = {
      ...event,
      atMs,
      id: historyEventId(atMs, this.#writer, this.#counter++ % 1_000_000),
    };
    return this.#append(namespace, stored).catch((error) =>
      this.#logger.warn("history event not recorded", { namespace, type: event.type, error })
    );
  }

  /** Events of `namespace` matching `query` (at most {@linkcode MAX_HISTORY_READ}). */
  read(namespace: string, query: Partial<HistoryQuery> = {}): Promise<HistoryEvent[]> {
    return this.#store.readHistory(namespace, {
      ...query,
      limit: Math.min(query.limit ?? MAX_HISTORY_READ, MAX_HISTORY_READ),
    });
  }

  async #append(namespace: string, event: HistoryEvent): Promise<void> {
    await this.#store.appendHistory(namespace, [event]);
    const count = (this.#sinceTrim.get(namespace) ?? 0) + 1;
    this.#sinceTrim.set(namespace, count % TRIM_EVERY);
    if (count % TRIM_EVERY === 1) {
      await this.#store.trimHistory(
        namespace,
        this.#clock.now() - this.#retention.maxAgeMs,
        this.#retention.maxEvents,
      );
    }
  }
}
