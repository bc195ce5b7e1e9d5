/**
 * The reconnect loop: keeps one watch stream open, moving to the next address
 * and waiting an exponential backoff with full jitter whenever a stream
 * fails, ends, or delivers nothing in time.
 *
 * @module
 */
import { backoffDelay, type BackoffOptions } from "../common/backoff.ts";
import { classifyCallError } from "../common/classify.ts";
import { ShardManagerError } from "../common/errors.ts";
import { sleep, type SpectatorClock } from "./clock.ts";
import type { SpectatorTransport } from "./transport.ts";
import type { PlacementUpdate } from "./types.ts";

/** What {@linkcode runWatchLoop} needs. */
export interface WatchLoopOptions {
  /** Service addresses, tried in turn. */
  readonly addresses: readonly string[];
  /** The namespace to watch. */
  readonly namespace: string;
  /** How to reach the service. */
  readonly transport: SpectatorTransport;
  /** Delays between attempts; the attempt count resets once a stream delivers. */
  readonly backoff: BackoffOptions;
  /** A stream that delivers no update within this many ms is abandoned. */
  readonly firstSnapshotTimeoutMs: number;
  /** Timers. */
  readonly clock: SpectatorClock;
  /** Jitter, and the first address (`addresses[floor(random() * n)]`). */
  readonly random: () => number;
}

/** What the loop reports. */
export interface WatchLoopHandlers {
  /** A stream delivered `update`; `first` for the first update of that stream. */
  update(update: PlacementUpdate, address: string, first: boolean): void;
  /**
   * A stream failed, ended, or timed out (`error` says which, classified);
   * the loop waits `retryInMs` before the next attempt.
   */
  lost(address: string, error: ShardManagerError, retryInMs: number): void;
}

/**
 * Runs until `signal` aborts; resolves once the stream and every timer it
 * started are gone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemClock } from "./clock.ts";
 * import type { SpectatorTransport } from "./transport.ts";
 * import { runWatchLoop } from "./watch_loop.ts";
 *
 * let calls = 0;
 * const transport: SpectatorTransport = { // in a program: grpcTransport()
 *   async *watch(_address, _namespace, signal) {
 *     if (calls++ === 0) throw new Error("connection refused");
 *     yield { kind: "snapshot", executors: [{ executorId: "a", metadata: {}, shards: ["1"] }] };
 *     await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
 *   },
 *   getShardOwner: () => Promise.reject(new Error("not used by the loop")),
 *   namespaceType: () => Promise.resolve("fixed"),
 *   isRetryable: () => true,
 *   close() {},
 * };
 * const seen: string[] = [];
 * const snapshot = Promise.withResolvers<void>();
 * const stop = new AbortController();
 * const done = runWatchLoop({
 *   addresses: ["sm-1:7943", "sm-2:7943"], namespace: "orders", transport,
 *   backoff: { baseMs: 1 }, firstSnapshotTimeoutMs: 10_000, clock: systemClock, random: () => 0,
 * }, {
 *   update: (u, address) => {
 *     seen.push(`${u.kind} from ${address}`);
 *     snapshot.resolve();
 *   },
 *   lost: (address, error) => seen.push(`${address}: ${error.message}`),
 * }, stop.signal);
 * await snapshot.promise;
 * stop.abort();
 * await done;
 * assert.deepEqual(seen, ["sm-1:7943: Watch to sm-1:7943 failed: connection refused", "snapshot from sm-2:7943"]);
 * ```
 */
export async function runWatchLoop(
  options: WatchLoopOptions,
  handlers: WatchLoopHandlers,
  signal: AbortSignal,
): Promise<void> {
  const { addresses, clock } = options;
  let index = Math.min(addresses.length - 1, Math.floor(options.random() * addresses.length));
  let attempt = 0;
  while (!signal.aborted) {
    const address = addresses[index]!;
    const { delivered, error } = await watchOnce(options, address, handlers, signal);
    if (signal.aborted) return;
    if (delivered) attempt = 0;
    const delay = backoffDelay(attempt++, options.backoff, options.random);
    handlers.lost(address, error, delay);
    index = (index + 1) % addresses.length;
    await sleep(clock, delay, signal);
  }
}

async function watchOnce(
  options: WatchLoopOptions,
  address: string,
  handlers: WatchLoopHandlers,
  signal: AbortSignal,
): Promise<{ delivered: boolean; error: ShardManagerError }> {
  const attempt = new AbortController();
  const stop = () => attempt.abort(signal.reason);
  signal.addEventListener("abort", stop, { once: true });
  let timedOut = false;
  const timer = options.clock.setTimeout(() => {
    timedOut = true;
    attempt.abort();
  }, options.firstSnapshotTimeoutMs);
  let delivered = false;
  let failure: unknown;
  try {
    const updates = options.transport.watch(address, options.namespace, attempt.signal);
    for await (const update of updates) {
      if (!delivered) options.clock.clearTimeout(timer);
      handlers.update(update, address, !delivered);
      delivered = true;
    }
  } catch (error) {
    failure = error;
  } finally {
    options.clock.clearTimeout(timer);
    signal.removeEventListener("abort", stop);
    attempt.abort();
  }
  return { delivered, error: classifyWatchFailure(options, address, timedOut, failure) };
}

/**
 * The one place a watch failure is classified: a stream that delivered
 * nothing in time, one the service ended, or one that failed.
 */
export function classifyWatchFailure(
  options: Pick<WatchLoopOptions, "namespace" | "firstSnapshotTimeoutMs">,
  address: string,
  timedOut: boolean,
  failure: unknown,
): ShardManagerError {
  if (timedOut) {
    return new ShardManagerError(
      `No snapshot from ${address} within ${options.firstSnapshotTimeoutMs} ms`,
      { code: "DEADLINE_EXCEEDED" },
    );
  }
  if (failure === undefined) {
    return new ShardManagerError(`The service at ${address} ended the watch stream`, {
      code: "UNAVAILABLE",
    });
  }
  return classifyCallError(failure, { address, namespace: options.namespace, operation: "Watch" });
}
