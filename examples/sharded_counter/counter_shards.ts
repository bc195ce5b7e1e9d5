/**
 * The sharded counter's shard logic: one processor per shard that loads the
 * shard's counters (taking `loadMs`, the warm-up a real service spends
 * reading state and filling caches), serves increments from memory, and
 * saves the counters when the shard moves away. With warm handover, the
 * `prepare` hook does the warm-up while the old owner still serves the
 * shard, so the processor only reads the latest saved counters and serves
 * at once. `http.ts` serves it, `node.ts` runs it under an executor,
 * `counter_shards_test.ts` tests it against the test kit.
 *
 * @module
 */
import {
  type PrepareHook,
  type ProcessorFactory,
  ShardStoppedError,
} from "../../packages/sdk/mod.ts";
import { sleep } from "../_shared/cli.ts";
import { type Counts, type Snapshots, unsavedSnapshots } from "./snapshots.ts";

/** How long a request waits for a shard prepared here to start (the switch is a few ms). */
export const ARRIVAL_WAIT_MS = 250;

/**
 * What an increment found: `warm` (the shard was loaded), `cold` (it was
 * still loading; the answer waited for the load), `not-serving` (this
 * process does not serve the shard: never had it, gave it away, or the
 * load was abandoned).
 */
export type Served =
  | { readonly state: "warm" | "cold"; readonly value: number }
  | { readonly state: "not-serving" };

/**
 * What the `prepare` hook hands the processor: the shard warmed up (its
 * `loadMs` spent) and the counters saved when it was prepared.
 */
export interface Warmed {
  /** The counters as saved when the shard was prepared (the old owner may save newer ones). */
  readonly counts: Counts | undefined;
}

/** What {@linkcode CounterShards} tells its node, with `Date.now()`-style times. */
export interface ShardEvents {
  /** Warm handover: the shard was prepared (warmed up) before it moves here. */
  onPrepared?(shard: string, atMs: number, fencingToken: string): void;
  /** The shard's load finished: requests are served from now on. */
  onServing?(shard: string, atMs: number, fencingToken: string): void;
  /** The shard stopped serving (moved away or shut down), if it was serving. */
  onUnserving?(shard: string, atMs: number, reason: string): void;
}

/** Options of {@linkcode CounterShards}. */
export interface CounterShardsOptions extends ShardEvents {
  /** How long a shard's load takes before its snapshot is read, in ms. @default {0} */
  readonly loadMs?: number;
  /** Where counters are read at load and written at stop. @default {a store that keeps nothing} */
  readonly snapshots?: Snapshots;
}

interface Slot {
  loaded: boolean;
  readonly counts: Map<string, number>;
  /** Resolves true once loaded, false if the load was abandoned. */
  readonly ready: Promise<boolean>;
}

/**
 * The shards this process serves, and the processor that loads them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CounterShards } from "./counter_shards.ts";
 *
 * const shards = new CounterShards({ loadMs: 0 });
 * assert.deepEqual(await shards.increment("3", "apples"), { state: "not-serving" });
 * ```
 */
export class CounterShards {
  /** Starts one shard's processor; give it to an `Executor`. */
  readonly processor: ProcessorFactory<Warmed>;
  /**
   * Warm handover: warms a shard up before it moves here (give it to the
   * `Executor` as `prepare`); the processor then skips the warm-up.
   */
  readonly prepare: PrepareHook<Warmed>;
  readonly #slots = new Map<string, Slot>();
  /**
   * Shards prepared here and not started yet: at the switch, a client whose
   * router switched first may ask a few ms before the processor starts.
   */
  readonly #arriving = new Map<string, PromiseWithResolvers<void>>();

  /** Shards loaded with `options`. */
  constructor(options: CounterShardsOptions = {}) {
    const loadMs = options.loadMs ?? 0;
    if (!(Number.isFinite(loadMs) && loadMs >= 0)) {
      throw new RangeError(`loadMs must be a finite number >= 0, got ${loadMs}`);
    }
    const snapshots = options.snapshots ?? unsavedSnapshots;
    this.prepare = async (ctx) => {
      await sleep(loadMs, ctx.signal);
      ctx.signal.throwIfAborted();
      const counts = await snapshots.read(ctx.shardKey);
      const arriving = Promise.withResolvers<void>();
      this.#arriving.set(ctx.shardKey, arriving);
      ctx.signal.addEventListener("abort", () => {
        if (this.#arriving.get(ctx.shardKey) === arriving) this.#arriving.delete(ctx.shardKey);
        arriving.resolve();
      }, { once: true });
      options.onPrepared?.(ctx.shardKey, Date.now(), ctx.fencingToken);
      return { counts };
    };
    this.processor = async (ctx) => {
      const shard = ctx.shardKey;
      const loading = Promise.withResolvers<boolean>();
      const slot: Slot = { loaded: false, counts: new Map(), ready: loading.promise };
      this.#slots.set(shard, slot);
      this.#arriving.get(shard)?.resolve();
      this.#arriving.delete(shard);
      const release = () => {
        if (this.#slots.get(shard) !== slot) return;
        this.#slots.delete(shard);
        loading.resolve(false);
        const why = ctx.signal.reason;
        const reason = why instanceof ShardStoppedError ? why.reason : "stop";
        if (slot.loaded) options.onUnserving?.(shard, Date.now(), reason);
      };
      ctx.signal.addEventListener("abort", release, { once: true });
      // Prepared: warm already; only the counters the old owner saved since are read.
      if (ctx.prepared === undefined) await sleep(loadMs, ctx.signal);
      const latest = ctx.signal.aborted ? undefined : await snapshots.read(shard);
      const saved = latest ?? ctx.prepared?.counts;
      if (!ctx.signal.aborted) {
        for (const [key, value] of Object.entries(saved ?? {})) slot.counts.set(key, value);
        slot.loaded = true;
        loading.resolve(true);
        options.onServing?.(shard, Date.now(), ctx.fencingToken);
      }
      return {
        stop: async () => {
          release();
          if (slot.loaded) await snapshots.write(shard, Object.fromEntries(slot.counts));
        },
      };
    };
  }

  /** Shards loaded and serving, sorted. */
  get serving(): string[] {
    return [...this.#slots].filter(([, s]) => s.loaded).map(([k]) => k).sort((a, b) => +a - +b);
  }

  /** Shards held but still loading, sorted. */
  get loading(): string[] {
    return [...this.#slots].filter(([, s]) => !s.loaded).map(([k]) => k).sort((a, b) => +a - +b);
  }

  /**
   * Adds 1 to counter `key` of `shard`; waits for a load in progress (then
   * `cold`), and up to `ARRIVAL_WAIT_MS` for a shard prepared here to start.
   */
  async increment(shard: string, key: string): Promise<Served> {
    const arriving = this.#slots.has(shard) ? undefined : this.#arriving.get(shard);
    if (arriving) {
      const waited = new AbortController();
      await Promise.race([arriving.promise, sleep(ARRIVAL_WAIT_MS, waited.signal)]);
      waited.abort();
    }
    const slot = this.#slots.get(shard);
    if (slot === undefined) return { state: "not-serving" };
    const state = slot.loaded ? "warm" : "cold";
    if (!slot.loaded && !(await slot.ready)) return { state: "not-serving" };
    // The shard may have moved away while this request waited.
    if (this.#slots.get(shard) !== slot) return { state: "not-serving" };
    const value = (slot.counts.get(key) ?? 0) + 1;
    slot.counts.set(key, value);
    return { state, value };
  }
}
