/**
 * Follows the service's assignment hints for one executor
 * (`WatchExecutorAssignment`): each hint says "your assignment changed", and
 * the executor answers it with a heartbeat at once. The hints carry no
 * assignment: the heartbeat's answer stays the one source of truth, so a lost
 * or late hint costs at most the wait for the next regular heartbeat.
 *
 * The stream is reopened after it ends or fails (with backoff), except when
 * the service does not have it (`UNIMPLEMENTED`): then the executor polls as
 * before, and nothing is logged as an error.
 *
 * @module
 */
import { backoffDelay } from "../common/backoff.ts";
import { classifyCallError } from "../common/classify.ts";
import type { ShardManagerError } from "../common/errors.ts";
import { type Clock, sleepOn } from "./clock.ts";
import type { HeartbeatTransport } from "./transport.ts";

/** Options of {@linkcode HintFollower}. */
export interface HintFollowerOptions {
  /** The executor's namespace. */
  readonly namespace: string;
  /** The executor. */
  readonly executorId: string;
  /** Whose timers the reopen delays use. */
  readonly clock: Clock;
  /** Random numbers in [0, 1), for the jitter of reopen delays. */
  readonly random: () => number;
  /** Called on every hint with its revision (the first one as soon as a stream opens). */
  readonly onHint: (revision: string) => void;
  /** Called once when the service does not offer hints; the follower then stops. */
  readonly onUnsupported?: (error: ShardManagerError) => void;
}

/** Delays before reopening the stream: the ceiling of the first, and the largest. */
const REOPEN = { baseMs: 250, maxMs: 10_000 };

/**
 * Keeps one hint stream open while it runs; {@linkcode HintFollower.close}
 * ends it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HintFollower } from "./_assignment_hints.ts";
 * import { systemClock } from "./clock.ts";
 *
 * const seen: string[] = [];
 * const transport = {
 *   heartbeat: () => Promise.reject(new Error("unused")),
 *   async *watchAssignment(_request: unknown, signal: AbortSignal) {
 *     yield "7";
 *     await new Promise((resolve) => signal.addEventListener("abort", resolve));
 *   },
 *   close() {},
 * };
 * const follower = new HintFollower(transport, {
 *   namespace: "ns",
 *   executorId: "e1",
 *   clock: systemClock,
 *   random: Math.random,
 *   onHint: (revision) => seen.push(revision),
 * });
 * await new Promise((resolve) => setTimeout(resolve, 10));
 * assert.deepEqual(seen, ["7"]);
 * assert.equal(follower.live, true);
 * await follower.close();
 * ```
 */
export class HintFollower {
  readonly #abort = new AbortController();
  readonly #done: Promise<void>;
  #live = false;

  /** Opens the stream through `transport` (nothing when it has no `watchAssignment`). */
  constructor(transport: HeartbeatTransport, options: HintFollowerOptions) {
    this.#done = this.#run(transport, options);
  }

  /** True while a stream is open and has delivered its first hint. */
  get live(): boolean {
    return this.#live;
  }

  /** Closes the stream; resolves once it is closed. */
  close(): Promise<void> {
    this.#abort.abort();
    return this.#done;
  }

  async #run(transport: HeartbeatTransport, options: HintFollowerOptions): Promise<void> {
    if (transport.watchAssignment === undefined) return;
    const { namespace, executorId, clock, random, onHint } = options;
    const { signal } = this.#abort;
    let failures = 0;
    while (!signal.aborted) {
      try {
        for await (const revision of transport.watchAssignment({ namespace, executorId }, signal)) {
          if (signal.aborted) break;
          this.#live = true;
          failures = 0;
          onHint(revision);
        }
      } catch (error) {
        if (signal.aborted) break;
        const failure = classifyCallError(error, {
          namespace,
          operation: "WatchExecutorAssignment",
        });
        if (failure.code === "UNIMPLEMENTED") {
          options.onUnsupported?.(failure);
          break;
        }
        failures++;
      } finally {
        this.#live = false;
      }
      await sleepOn(clock, backoffDelay(failures, REOPEN, random), signal);
    }
  }
}
