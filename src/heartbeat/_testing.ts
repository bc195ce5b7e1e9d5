/**
 * Test doubles for the heartbeat stages: an in-memory store of executor
 * records that also plays the namespace cache (a write is "seen" at once, at
 * the fake clock's time), with writes that can be held and failed.
 *
 * @module
 */
import type { Clock } from "../core/clock.ts";
import { NO_REPORTS } from "../core/shared_reports.ts";
import type { ExecutorWrite } from "../core/types.ts";
import type { IngestNamespace, KnownExecutor, NamespaceLookup } from "./submission.ts";
import type { RawHeartbeat } from "./validate_heartbeat.ts";

/** One `writeExecutors` call. */
export interface WriteCall {
  /** Namespace written. */
  readonly namespace: string;
  /** What was written. */
  readonly writes: readonly ExecutorWrite[];
}

/**
 * An in-memory executor store; see the module doc.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fakeClock } from "../core/fake_clock.ts";
 * import { MemoryExecutorStore } from "./_testing.ts";
 *
 * const time = fakeClock(50);
 * const store = new MemoryExecutorStore(time.clock);
 * const revision = await store.writeExecutors("ns", [
 *   { executorId: "e1", heartbeat: { status: "ACTIVE", timestampMs: 1 }, metadata: { a: "1" } },
 * ]);
 * assert.equal(revision, 1);
 * assert.deepEqual(store.namespace("ns").executor("e1")?.metadata, { a: "1" });
 * assert.equal(store.namespace("ns").executor("e1")?.seenAtMs, 50);
 * ```
 */
export class MemoryExecutorStore {
  /** Every call, in order. */
  readonly calls: WriteCall[] = [];
  /** While set, writes reject with it. */
  failure: Error | undefined;
  /** Writes in progress. */
  inFlight = 0;
  readonly #clock: Clock;
  readonly #records = new Map<string, Map<string, KnownExecutor>>();
  #revision = 0;
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;

  /** Records "seen" times from `clock`. */
  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Holds every write (from now on) until {@linkcode MemoryExecutorStore.release}. */
  hold(): void {
    this.#held ??= new Promise((resolve) => this.#release = resolve);
  }

  /** Lets held writes finish. */
  release(): void {
    this.#release?.();
    this.#held = undefined;
    this.#release = undefined;
  }

  /** The store port. */
  readonly writeExecutors = async (
    namespace: string,
    writes: readonly ExecutorWrite[],
  ): Promise<number> => {
    this.calls.push({ namespace, writes });
    this.inFlight++;
    try {
      if (this.#held) await this.#held;
      if (this.failure) throw this.failure;
      const revision = ++this.#revision;
      let records = this.#records.get(namespace);
      if (!records) this.#records.set(namespace, records = new Map());
      for (const w of writes) {
        const before = records.get(w.executorId);
        records.set(w.executorId, {
          status: w.heartbeat.status,
          seenAtMs: this.#clock.monotonic(),
          metadata: w.metadata ?? before?.metadata ?? {},
          reports: w.reports ?? before?.reports ?? NO_REPORTS,
        });
      }
      return revision;
    } finally {
      this.inFlight--;
    }
  };

  /** What a namespace's cache would say: the records written so far. */
  namespace(name: string, recordEvery = false): IngestNamespace {
    return { executor: (id) => this.#records.get(name)?.get(id), recordEvery };
  }

  /** A lookup serving `names` (the first `exclusive` of them with `recordEvery`). */
  lookup(names: readonly string[], exclusive: readonly string[] = []): NamespaceLookup {
    const served = new Map(names.map((n) => [n, this.namespace(n, exclusive.includes(n))]));
    return (name) => served.get(name);
  }
}

/**
 * A well-formed raw heartbeat of `executorId` in namespace `ns`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rawHeartbeat } from "./_testing.ts";
 *
 * assert.equal(rawHeartbeat("e1", { namespace: "x" }).namespace, "x");
 * ```
 */
export function rawHeartbeat(executorId: string, over: Partial<RawHeartbeat> = {}): RawHeartbeat {
  return {
    namespace: "ns",
    executorId,
    status: "EXECUTOR_STATUS_ACTIVE",
    reports: NO_REPORTS,
    metadata: {},
    ...over,
  };
}

/**
 * Tracks a promise so a test can tell whether (and how) it has settled yet.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { track } from "./_testing.ts";
 *
 * const state = track(Promise.resolve(3));
 * assert.equal(state.settled, false);
 * await Promise.resolve();
 * assert.deepEqual(state, { settled: true, value: 3 });
 * ```
 */
export function track<T>(promise: Promise<T>): { value?: T; error?: unknown; settled: boolean } {
  const state: { value?: T; error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { value, settled: true }),
    (error) => Object.assign(state, { error, settled: true }),
  );
  return state;
}
