/**
 * Who leads each namespace, as the dashboard shows it. The answer comes from
 * the leader store, so it is cached briefly (every open page would otherwise
 * ask once a second) and never waited on for long: when the store is slow or
 * down the page gets the last answer, marked with its age and the error.
 *
 * @module
 */
import { type Clock, sleep, systemClock } from "../../../core/clock.ts";
import type { LeaderView } from "../../../routing/views.ts";

/** The leader of one namespace as last learnt. */
export interface LeaderInfo {
  /** The leading instance; absent when there is none or it is not known. */
  readonly instanceId?: string;
  /** The leader's term. */
  readonly term?: number;
  /** When the term began (ms since epoch), when known. */
  readonly sinceMs?: number;
  /** When the leader store answered this (ms since epoch); absent before the first answer. */
  readonly checkedAtMs?: number;
  /** Why the last lookup failed, when it did (the other fields are then the last known). */
  readonly error?: string;
  /**
   * Set while the serving instance cannot read its store: the leader shown is
   * the last known, and this is the last good read (ms since epoch).
   */
  readonly unknownSinceMs?: number;
  /** Stable name of the leading instance. */
  readonly instanceName?: string;
  /** gRPC address of the leading instance. */
  readonly grpcAddress?: string;
  /** HTTP address of the leading instance. */
  readonly httpAddress?: string;
}

/** Options of {@linkcode LeaderCache}. */
export interface LeaderCacheOptions {
  /** An answer younger than this is reused. @default {1000} */
  readonly maxAgeMs?: number;
  /** Longest wait for a fresh answer before serving the last one. @default {1000} */
  readonly waitMs?: number;
  /** Time source. @default {systemClock} */
  readonly clock?: Clock;
}

interface Answer {
  readonly atMonotonic: number;
  readonly atMs: number;
  readonly leaders: ReadonlyMap<string, LeaderView>;
}

/** Caches `listLeaders()` for every caller of one instance. */
export class LeaderCache {
  #list: () => Promise<LeaderView[]>;
  #maxAgeMs: number;
  #waitMs: number;
  #clock: Clock;
  #answer: Answer | undefined;
  #error: string | undefined;
  #inflight: Promise<void> | undefined;

  /** Asks `list` at most once per `maxAgeMs`. */
  constructor(list: () => Promise<LeaderView[]>, options: LeaderCacheOptions = {}) {
    const { maxAgeMs = 1_000, waitMs = 1_000 } = options;
    if (!(maxAgeMs >= 0)) throw new RangeError(`maxAgeMs must be >= 0, got ${maxAgeMs}`);
    if (!(waitMs >= 0)) throw new RangeError(`waitMs must be >= 0, got ${waitMs}`);
    this.#list = list;
    this.#maxAgeMs = maxAgeMs;
    this.#waitMs = waitMs;
    this.#clock = options.clock ?? systemClock;
  }

  /** The leader of `namespace`: fresh when the store answers within `waitMs`, else the last known. */
  async get(namespace: string): Promise<LeaderInfo> {
    const answer = this.#answer;
    if (!answer || this.#clock.monotonic() - answer.atMonotonic >= this.#maxAgeMs) {
      await this.#refresh();
    }
    return this.#info(namespace);
  }

  async #refresh(): Promise<void> {
    this.#inflight ??= this.#list().then(
      (leaders) => {
        this.#answer = {
          atMonotonic: this.#clock.monotonic(),
          atMs: this.#clock.now(),
          leaders: new Map(leaders.map((l) => [l.namespace, l])),
        };
        this.#error = undefined;
      },
      (error) => {
        this.#error = error instanceof Error ? error.message : String(error);
      },
    ).finally(() => this.#inflight = undefined);
    const timeout = new AbortController();
    try {
      await Promise.race([
        this.#inflight,
        sleep(this.#waitMs, timeout.signal, this.#clock).catch(() => {}),
      ]);
    } finally {
      timeout.abort();
    }
  }

  #info(namespace: string): LeaderInfo {
    const answer = this.#answer;
    const known = answer?.leaders.get(namespace);
    const error = this.#error ??
      (this.#inflight && !answer ? "the leader store has not answered yet" : undefined);
    return {
      ...(known?.instanceId === undefined ? {} : { instanceId: known.instanceId }),
      ...(known?.term === undefined ? {} : { term: known.term }),
      ...(known?.sinceMs === undefined ? {} : { sinceMs: known.sinceMs }),
      ...(known?.unknownSinceMs === undefined ? {} : { unknownSinceMs: known.unknownSinceMs }),
      ...(known?.instanceName ? { instanceName: known.instanceName } : {}),
      ...(known?.grpcAddress ? { grpcAddress: known.grpcAddress } : {}),
      ...(known?.httpAddress ? { httpAddress: known.httpAddress } : {}),
      ...(answer === undefined ? {} : { checkedAtMs: answer.atMs }),
      ...(error === undefined ? {} : { error }),
    };
  }
}
