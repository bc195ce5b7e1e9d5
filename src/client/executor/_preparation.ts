/**
 * Warm handover on the incoming executor: the `prepare` hook of one shard
 * that the service listed as PREPARING, run in the background, bounded by
 * `prepareTimeoutMs`, and what becomes of its value: handed to the
 * processor when the shard turns READY here, disposed when the move is
 * called off.
 *
 * @module
 */
import type { ShardStatusReport__Output } from "../../wire/proto.ts";
import { shardReport } from "./_shard_report.ts";
import { ProcessorTimeoutError, ShardStoppedError } from "./errors.ts";
import type { ResolvedOptions } from "./_resolve_options.ts";
import type { ExecutorEvent, PrepareCancelReason, PrepareHook, ShardOwner } from "./types.ts";
import { withTimeout } from "./_with_timeout.ts";
import type { KeyRanges } from "./_key_ranges.ts";

/**
 * `preparing` → `prepared` (reported PREPARED) or `failed` (threw or timed
 * out); `handed-over` once a processor got the value; `cancelled` once the
 * move was called off.
 */
export type PreparationState = "preparing" | "prepared" | "failed" | "handed-over" | "cancelled";

/** What a {@linkcode Preparation} reports to its executor. */
export interface PreparationHooks {
  /** Emits an executor event. */
  readonly emit: (event: ExecutorEvent) => void;
  /** The prepare resolved: heartbeat now, so that the switch takes a round trip. */
  readonly onPrepared: () => void;
  /** Looks the shard's serving owner up (for `ctx.currentOwner()`). */
  readonly currentOwner: (shardKey: string, signal: AbortSignal) => Promise<ShardOwner | undefined>;
  /** Key-range namespaces: the executor's slices (a slice being prepared is among them). */
  readonly keyRanges?: Pick<KeyRanges, "slice">;
}

/**
 * One shard being prepared, or prepared, on this executor.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Preparation } from "./_preparation.ts";
 * import { resolveOptions } from "./_resolve_options.ts";
 *
 * const options = resolveOptions({ addresses: "x:1", namespace: "ns", processor: () => {} });
 * const preparation = new Preparation("7", "120", options, {
 *   emit: () => {},
 *   onPrepared: () => {},
 *   currentOwner: () => Promise.resolve(undefined),
 * });
 * preparation.begin((ctx) => `state of ${ctx.shardKey}`);
 * assert.equal(await preparation.handOver(), "state of 7");
 * assert.equal(preparation.state, "handed-over");
 * ```
 */
export class Preparation {
  /** The shard. */
  readonly shardKey: string;
  /** The token the shard will have here once handed over. */
  readonly fencingToken: string;
  readonly #o: ResolvedOptions;
  readonly #hooks: PreparationHooks;
  readonly #controller = new AbortController();
  #state: PreparationState = "preparing";
  #value: unknown;
  #settled: Promise<void> = Promise.resolve();
  #cancelling: Promise<void> | undefined;

  /** A preparation that has not begun. */
  constructor(
    shardKey: string,
    fencingToken: string,
    options: ResolvedOptions,
    hooks: PreparationHooks,
  ) {
    this.shardKey = shardKey;
    this.fencingToken = fencingToken;
    this.#o = options;
    this.#hooks = hooks;
  }

  /** Where it is in its life. */
  get state(): PreparationState {
    return this.#state;
  }

  /** `SHARD_STATUS_PREPARED` once prepared (and until handed over or cancelled). */
  report(): ShardStatusReport__Output | undefined {
    return this.#state === "prepared" ? shardReport("SHARD_STATUS_PREPARED", 0) : undefined;
  }

  /** Same as {@linkcode Preparation.report}: exclusive namespaces report it alike. */
  heldReport(): ShardStatusReport__Output | undefined {
    return this.report();
  }

  /** Runs `hook` in the background; never throws. */
  begin(hook: PrepareHook<unknown>): void {
    const { shardKey, fencingToken } = this;
    const { signal } = this.#controller;
    const { clock, prepareTimeoutMs, namespace, executorId } = this.#o;
    const ctx = Object.freeze({
      shardKey,
      namespace,
      executorId,
      fencingToken,
      signal,
      slice: this.#hooks.keyRanges?.slice(shardKey),
      currentOwner: () => this.#hooks.currentOwner(shardKey, signal),
    });
    const at = clock.now();
    this.#hooks.emit({ type: "preparing", shardKey, fencingToken });
    const attempt = Promise.resolve().then(() => hook(ctx));
    const timeout = () => new ProcessorTimeoutError(shardKey, "prepare", prepareTimeoutMs);
    this.#settled = withTimeout(attempt, prepareTimeoutMs, clock, timeout).then(
      (value) => {
        if (this.#state !== "preparing") return dispose(value); // cancelled meanwhile
        this.#value = value;
        this.#state = "prepared";
        const durationMs = clock.now() - at;
        this.#hooks.emit({ type: "prepared", shardKey, fencingToken, durationMs });
        this.#hooks.onPrepared();
        return undefined;
      },
      (error) => {
        // A prepare that finishes after its timeout is disposed at once.
        if (error instanceof ProcessorTimeoutError) attempt.then(dispose, () => {});
        if (this.#state !== "preparing") return;
        this.#state = "failed";
        this.#hooks.emit({ type: "processor-failed", shardKey, phase: "prepare", error });
      },
    );
  }

  /**
   * Waits for the prepare to settle, then hands its value over to a
   * processor (which owns it from then on): the value, or `undefined` when
   * the prepare failed or was cancelled. Only the first call gets the value.
   */
  async handOver(): Promise<unknown> {
    await this.#settled;
    if (this.#state !== "prepared") return undefined;
    this.#state = "handed-over";
    const value = this.#value;
    this.#value = undefined;
    return value;
  }

  /**
   * The shard will not be served here: aborts the hook's signal, and once
   * the prepare has settled (or `stopTimeoutMs` passed: a late value is
   * disposed when it comes) disposes the value. Emits `prepare-cancelled`
   * unless the prepare had failed. Never rejects; calling it again returns
   * the same promise.
   */
  cancel(reason: PrepareCancelReason): Promise<void> {
    return this.#cancelling ??= this.#cancel(reason);
  }

  async #cancel(reason: PrepareCancelReason): Promise<void> {
    const prior = this.#state;
    if (prior === "handed-over") return;
    this.#state = "cancelled";
    this.#controller.abort(new ShardStoppedError(this.shardKey, reason));
    if (prior !== "failed") {
      this.#hooks.emit({ type: "prepare-cancelled", shardKey: this.shardKey, reason });
    }
    if (prior === "prepared") {
      const value = this.#value;
      this.#value = undefined;
      return await this.#bounded(dispose(value));
    }
    // Still preparing: the value, if it ever comes, is disposed by `begin`.
    await this.#bounded(this.#settled);
  }

  #bounded(work: Promise<void>): Promise<void> {
    const { stopTimeoutMs, clock } = this.#o;
    const late = () => new ProcessorTimeoutError(this.shardKey, "stop", stopTimeoutMs);
    return withTimeout(work, stopTimeoutMs, clock, late).catch(() => {});
  }
}

/**
 * Disposes a prepared value that no processor will get: its
 * `[Symbol.asyncDispose]()` or `[Symbol.dispose]()`, if it has one. Never
 * rejects (a failing disposal is ignored: the value is dropped either way).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dispose } from "./_preparation.ts";
 *
 * let closed = false;
 * await dispose({ [Symbol.asyncDispose]: async () => void (closed = true) });
 * assert.equal(closed, true);
 * await dispose("plain values are left alone");
 * await dispose({ [Symbol.dispose]: () => { throw new Error("ignored") } });
 * ```
 */
export async function dispose(value: unknown): Promise<void> {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return;
  const disposable = value as Partial<AsyncDisposable & Disposable>;
  try {
    const asyncDispose = disposable[Symbol.asyncDispose];
    const syncDispose = disposable[Symbol.dispose];
    if (typeof asyncDispose === "function") await asyncDispose.call(value);
    else if (typeof syncDispose === "function") syncDispose.call(value);
  } catch {
    // Dropped either way; the application's disposer reports its own failures.
  }
}
