/**
 * Records and reads a namespace's history (see `core/history_event.ts`).
 * Recording never fails the caller: an event that cannot be written (the
 * store is down) is tried again for a few minutes, then logged and dropped,
 * as the log is for people, not for correctness. Every so many appends the
 * log is trimmed to its retention.
 *
 * @module
 */
import { type Clock, sleep } from "../core/clock.ts";
import {
  DEFAULT_HISTORY_RETENTION,
  type HistoryEvent,
  historyEventId,
  type HistoryEventInput,
  type HistoryRetention,
} from "../core/history_event.ts";
import type { Logger } from "../core/logger.ts";
import type { HistoryQuery, HistoryStore } from "../store/history_store.ts";
import { currentOperator, OPERATOR_EVENTS } from "./operator_identity.ts";

/** Appends between trims of one namespace's log. */
const TRIM_EVERY = 50;

/** Most events written in one append (one etcd transaction holds at most 128 operations). */
const MAX_BATCH = 100;

/** Most events waiting to be written per namespace; past it, new ones are dropped. */
const MAX_QUEUED = 1_000;

/** How long a write the store refused is tried again before its events are dropped. */
const RETRY_FOR_MS = 5 * 60_000;

/** Longest wait between two tries. */
const MAX_RETRY_WAIT_MS = 15_000;

/** Most events one read returns. */
export const MAX_HISTORY_READ = 1_000;

interface Queued {
  readonly event: HistoryEvent;
  readonly done: () => void;
}

/**
 * A namespace history, recorded by this instance. Writes are serial per
 * namespace, and events recorded while one is in flight go into the next in
 * one append: a burst of events (thousands of executors joining) costs a few
 * store requests, not one each.
 */
export class HistoryLog {
  #store: HistoryStore;
  #clock: Clock;
  #logger: Logger;
  #writer: string;
  #retention: HistoryRetention;
  #counter = 0;
  #sinceTrim = new Map<string, number>();
  #queues = new Map<string, Queued[]>();
  #signal: AbortSignal | undefined;

  /**
   * Writes to `store`; `writer` (this instance) makes ids unique across
   * instances; `signal` (the instance stopping) ends the retries of failed
   * writes.
   */
  constructor(
    store: HistoryStore,
    options: {
      readonly clock: Clock;
      readonly logger: Logger;
      readonly writer: string;
      readonly retention?: HistoryRetention;
      readonly signal?: AbortSignal;
    },
  ) {
    this.#store = store;
    this.#signal = options.signal;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#writer = options.writer.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 64) || "instance";
    this.#retention = options.retention ?? DEFAULT_HISTORY_RETENTION;
  }

  /**
   * Records an event (in the background), at `event.atMs` or now; resolves
   * once written or dropped.
   */
  record(
    namespace: string,
    event: Omit<HistoryEventInput, "atMs"> & { readonly atMs?: number },
  ): Promise<void> {
    const atMs = event.atMs ?? this.#clock.now();
    const actor = event.actor ?? (OPERATOR_EVENTS.has(event.type) ? currentOperator() : undefined);
    const stored: HistoryEvent = {
      ...event,
      ...(actor ? { actor } : {}),
      atMs,
      id: historyEventId(atMs, this.#writer, this.#counter++ % 1_000_000),
    };
    let queue = this.#queues.get(namespace);
    if (queue && queue.length >= MAX_QUEUED) {
      this.#logger.warn("history event not recorded", {
        namespace,
        type: event.type,
        error: `${MAX_QUEUED} events are already waiting to be written`,
      });
      return Promise.resolve();
    }
    if (!queue) {
      this.#queues.set(namespace, queue = []);
      void this.#drain(namespace, queue);
    }
    const written = Promise.withResolvers<void>();
    queue.push({ event: stored, done: written.resolve });
    return written.promise;
  }

  /** Events of `namespace` matching `query` (at most {@linkcode MAX_HISTORY_READ}). */
  read(namespace: string, query: Partial<HistoryQuery> = {}): Promise<HistoryEvent[]> {
    return this.#store.readHistory(namespace, {
      ...query,
      limit: Math.min(query.limit ?? MAX_HISTORY_READ, MAX_HISTORY_READ),
    });
  }

  /**
   * The history of a namespace that no longer exists (deleted, its history
   * kept): trimmed to its retention first, so that it is readable until the
   * retention ends and then goes. `undefined` when nothing is left.
   */
  async readRemoved(
    namespace: string,
    query: Partial<HistoryQuery> = {},
  ): Promise<HistoryEvent[] | undefined> {
    await this.#store.trimHistory(
      namespace,
      this.#clock.now() - this.#retention.maxAgeMs,
      this.#retention.maxEvents,
    );
    const events = await this.read(namespace, query);
    if (events.length > 0) return events;
    return (await this.read(namespace, { limit: 1 })).length > 0 ? [] : undefined;
  }

  /**
   * Trims the history of every namespace, live or deleted, to its retention,
   * so that events go once they are older than `maxAge` even when nobody
   * reads them again and the namespace records nothing more (trimming on
   * append runs only every 50 events, which a quiet namespace may take days
   * to write). Returns how many events were dropped.
   */
  async sweep(): Promise<number> {
    let dropped = 0;
    for (const namespace of await this.#store.historyNamespaces()) {
      dropped += await this.#store.trimHistory(
        namespace,
        this.#clock.now() - this.#retention.maxAgeMs,
        this.#retention.maxEvents,
      );
    }
    return dropped;
  }

  /**
   * How often {@linkcode HistoryLog.sweep} should run: a quarter of
   * `maxAge`, from 1 s to 10 min.
   */
  get sweepEveryMs(): number {
    return Math.min(10 * 60_000, Math.max(1_000, Math.round(this.#retention.maxAgeMs / 4)));
  }

  /** Writes `queue` in batches until it is empty, then forgets it. */
  async #drain(namespace: string, queue: Queued[]): Promise<void> {
    // Let the caller's burst (one pass's notes) gather first.
    await Promise.resolve();
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      const giveUpAt = this.#clock.monotonic() + RETRY_FOR_MS;
      for (let wait = 500;; wait = Math.min(wait * 2, MAX_RETRY_WAIT_MS)) {
        try {
          await this.#append(namespace, batch.map((q) => q.event));
          break;
        } catch (error) {
          const retry = this.#clock.monotonic() + wait < giveUpAt &&
            await sleep(wait, this.#signal, this.#clock).then(() => true, () => false);
          if (retry) continue;
          this.#logger.warn("history event not recorded", {
            namespace,
            type: batch.length === 1 ? batch[0]!.event.type : `${batch.length} events`,
            error,
          });
          break;
        }
      }
      for (const q of batch) q.done();
    }
    this.#queues.delete(namespace);
  }

  async #append(namespace: string, events: readonly HistoryEvent[]): Promise<void> {
    await this.#store.appendHistory(namespace, events);
    // Events since the last trim; the first append of an instance trims.
    const count = (this.#sinceTrim.get(namespace) ?? TRIM_EVERY) + events.length;
    this.#sinceTrim.set(namespace, count < TRIM_EVERY ? count : 0);
    if (count < TRIM_EVERY) return;
    try {
      await this.#store.trimHistory(
        namespace,
        this.#clock.now() - this.#retention.maxAgeMs,
        this.#retention.maxEvents,
      );
    } catch (error) {
      this.#logger.warn("history not trimmed; retried after more events", { namespace, error });
    }
  }
}
