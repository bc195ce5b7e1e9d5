/**
 * The life of one shard's processor on an executor: start and stop, each
 * with a timeout, never awaited by the heartbeat loop.
 *
 * @module
 */
import type { KeyRanges } from "./_key_ranges.ts";
import type { ShardStatusReport__Output } from "../../wire/proto.ts";
import { ShardManagerError } from "../common/errors.ts";
import { ProcessorTimeoutError, ShardStoppedError } from "./errors.ts";
import type { ResolvedOptions } from "./_resolve_options.ts";
import type { ExecutorEvent, ReleaseReason, ShardContext, ShardProcessor } from "./types.ts";
import { withTimeout } from "./_with_timeout.ts";
import type { Preparation } from "./_preparation.ts";
import { startRetryDelay } from "./_start_backoff.ts";
import { shardReport } from "./_shard_report.ts";

/**
 * `idle` → `starting` → `running` → `stopping` → `stopped`; a failed or
 * timed-out start goes to `failed`, from which `start()` tries again.
 */
export type SlotState = "idle" | "starting" | "running" | "failed" | "stopping" | "stopped";

/** One shard held by an executor. */
export class ShardSlot {
  /** The shard. */
  readonly shardKey: string;
  /** The token the service gave with the shard. */
  readonly fencingToken: string;
  readonly #options: ResolvedOptions;
  readonly #emit: (event: ExecutorEvent) => void;
  #state: SlotState = "idle";
  #controller = new AbortController();
  #attempt: Promise<void> = Promise.resolve();
  #processor: ShardProcessor | undefined;
  #stopping: Promise<void> | undefined;
  #load = 0;
  #done = false;
  /** Consecutive failed starts (0 once a start succeeds). */
  #failedStarts = 0;
  /** When (clock ms) a failed start may be tried again. */
  #retryAt = 0;
  /** Warm handover: the preparation whose value the first start gets (waiting for it first). */
  #preparation: Preparation | undefined;
  /** Key-range namespaces: the executor's slices and their key loads. */
  readonly #ranges: KeyRanges | undefined;

  /** A slot that has not started; `preparation` when the shard was prepared (or is being). */
  constructor(
    shardKey: string,
    fencingToken: string,
    options: ResolvedOptions,
    emit: (event: ExecutorEvent) => void,
    preparation?: Preparation,
    ranges?: KeyRanges,
  ) {
    this.#ranges = ranges;
    this.shardKey = shardKey;
    this.fencingToken = fencingToken;
    this.#options = options;
    this.#emit = emit;
    this.#preparation = preparation;
  }

  /** Where the slot is in its life. */
  get state(): SlotState {
    return this.#state;
  }

  /** Consecutive failed starts of this shard here (0 once a start succeeded). */
  get failedStarts(): number {
    return this.#failedStarts;
  }

  /** Whether a failed start may be tried again at `now` (its backoff has passed). */
  retryDue(now: number): boolean {
    return this.#state === "failed" && now >= this.#retryAt;
  }

  /**
   * The report for the next heartbeat of an available namespace: while the
   * processor runs, and, once a start failed, NOT_RUNNING with the count of
   * failed starts until a start succeeds (the service counts them to find
   * poison shards).
   */
  report(): ShardStatusReport__Output | undefined {
    if (this.#state === "running") {
      return shardReport(this.#done ? "SHARD_STATUS_DONE" : "SHARD_STATUS_READY", this.#load);
    }
    const retrying = this.#state === "failed" || this.#state === "starting";
    if (!retrying || this.#failedStarts === 0) return undefined;
    return shardReport("SHARD_STATUS_NOT_RUNNING", 0, this.#failedStarts);
  }

  /**
   * The report of an exclusive namespace: present whenever a processor may be
   * live (starting, running, failed after a timed-out start, stopping), so the
   * service never moves the shard while it may run. Only a running processor
   * is READY (or DONE); the others are NOT_RUNNING, which tells the service
   * the shard is held but not served (a server that predates the value takes
   * it as READY).
   */
  heldReport(): ShardStatusReport__Output | undefined {
    if (this.#state === "idle" || this.#state === "stopped") return undefined;
    if (this.#state !== "running") {
      return shardReport("SHARD_STATUS_NOT_RUNNING", this.#load, this.#failedStarts);
    }
    return shardReport(this.#done ? "SHARD_STATUS_DONE" : "SHARD_STATUS_READY", this.#load);
  }

  /**
   * Starts the processor in the background (from `idle` or `failed` only).
   * A prepared shard's first start waits for its prepare to settle and gets
   * its value (`startTimeoutMs` runs from then); retries start cold.
   */
  start(): void {
    if (this.#state !== "idle" && this.#state !== "failed") return;
    const controller = this.#controller = new AbortController();
    this.#state = "starting";
    const preparation = this.#preparation;
    // The value goes to the first start only: `handOver()` gives undefined after that.
    this.#attempt = preparation === undefined
      ? this.#run(controller, undefined)
      : preparation.handOver().then((prepared) => {
        // Stopped while the prepare ran: stop() cancelled it, which disposes its value.
        if (this.#state !== "starting") return;
        return this.#run(controller, prepared);
      });
  }

  #run(controller: AbortController, prepared: unknown): Promise<void> {
    const ctx = this.#context(controller.signal, prepared);
    const { processor, startTimeoutMs, clock } = this.#options;
    const attempt = Promise.resolve().then(() => processor(ctx));
    const timeout = () => new ProcessorTimeoutError(this.shardKey, "start", startTimeoutMs);
    return withTimeout(attempt, startTimeoutMs, clock, timeout).then(
      (started) => {
        this.#processor = started ?? undefined;
        if (this.#state !== "starting") return; // stop() was called meanwhile; it stops this
        this.#state = "running";
        this.#failedStarts = 0;
        this.#emit({ type: "started", shardKey: this.shardKey, fencingToken: this.fencingToken });
      },
      (error) => {
        controller.abort(new ShardStoppedError(this.shardKey, "start-failed"));
        // A start that finishes after its timeout is stopped at once.
        if (error instanceof ProcessorTimeoutError) {
          attempt.then((late) => late?.stop?.()).catch(() => {});
        }
        if (this.#state !== "starting") return;
        this.#state = "failed";
        const failedStarts = ++this.#failedStarts;
        const { startRetryInitialMs: initialMs, startRetryMaxMs: maxMs, random } = this.#options;
        const retryInMs = startRetryDelay(failedStarts, { initialMs, maxMs }, random);
        this.#retryAt = clock.now() + retryInMs;
        this.#emit({
          type: "processor-failed",
          shardKey: this.shardKey,
          phase: "start",
          error,
          failedStarts,
          retryInMs,
        });
      },
    );
  }

  /**
   * Aborts the signal, waits for a pending start to settle, then calls the
   * processor's `stop()` (bounded by `stopTimeoutMs`). Resolves once stopped;
   * never rejects. Calling it again returns the same promise.
   */
  stop(reason: ReleaseReason): Promise<void> {
    return this.#stopping ??= this.#stop(reason);
  }

  async #stop(reason: ReleaseReason): Promise<void> {
    const prior = this.#state;
    this.#state = "stopping";
    if (!this.#controller.signal.aborted) {
      this.#controller.abort(new ShardStoppedError(this.shardKey, reason));
    }
    // A prepare not yet handed over (still running) is called off; otherwise a no-op.
    await this.#preparation?.cancel(reason);
    if (prior === "starting") await this.#attempt;
    const processor = this.#processor;
    this.#processor = undefined;
    if (processor?.stop !== undefined) {
      const { stopTimeoutMs, clock } = this.#options;
      const timeout = () => new ProcessorTimeoutError(this.shardKey, "stop", stopTimeoutMs);
      try {
        await withTimeout(
          Promise.resolve().then(() => processor.stop?.()),
          stopTimeoutMs,
          clock,
          timeout,
        );
      } catch (error) {
        this.#emit({ type: "processor-failed", shardKey: this.shardKey, phase: "stop", error });
      }
    }
    this.#state = "stopped";
  }

  #context(signal: AbortSignal, prepared: unknown): ShardContext {
    const ranges = this.#ranges;
    const shardKey = this.shardKey;
    return {
      shardKey: this.shardKey,
      namespace: this.#options.namespace,
      executorId: this.#options.executorId,
      fencingToken: this.fencingToken,
      signal,
      prepared,
      reportLoad: (load: number) => {
        if (typeof load !== "number" || !Number.isFinite(load) || load < 0) {
          throw new ShardManagerError(`Shard load must be a finite number >= 0, got ${load}`, {
            code: "INVALID_ARGUMENT",
          });
        }
        if (!signal.aborted) this.#load = load;
      },
      done: () => {
        if (!signal.aborted) this.#done = true;
      },
      get slice() {
        return ranges?.slice(shardKey);
      },
      contains: (key: string) =>
        ranges === undefined || !ranges.active || ranges.contains(shardKey, key),
      reportKeyLoad: (key: string, load = 1) => {
        if (typeof load !== "number" || !Number.isFinite(load) || load < 0) {
          throw new ShardManagerError(`Key load must be a finite number >= 0, got ${load}`, {
            code: "INVALID_ARGUMENT",
          });
        }
        if (!signal.aborted && ranges?.active) ranges.record(String(key), load);
      },
    };
  }
}
