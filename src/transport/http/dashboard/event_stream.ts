/**
 * Server-sent events of a namespace picture: one `state` event each time the
 * spectator fan-out reports a change, and one every `refreshMs` without a
 * change so that heartbeat ages and loads stay current. The stream is pulled
 * by the HTTP response, so a slow browser skips pictures (the fan-out is
 * "latest value") instead of queueing them.
 *
 * @module
 */
import { type Clock, sleep, systemClock } from "../../../core/clock.ts";

/** Options of {@linkcode stateEvents}. */
export interface StateEventsOptions {
  /** Longest time between two events. @default {1000} */
  readonly refreshMs?: number;
  /** Shortest time between two events, to bound the work per open page. @default {100} */
  readonly minIntervalMs?: number;
  /** Reconnect delay the browser is told to use (`retry:`). @default {2000} */
  readonly retryMs?: number;
  /** Ends the stream when it aborts. Cancelling the stream (the tab closed) ends it too. */
  readonly signal?: AbortSignal;
  /** Whose time the intervals run on. @default {systemClock} */
  readonly clock?: Clock;
}

/**
 * One server-sent event. `data` is JSON without raw line breaks, so it fits
 * one `data:` line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sseEvent } from "./event_stream.ts";
 *
 * assert.equal(sseEvent("state", { a: 1 }), 'event: state\ndata: {"a":1}\n\n');
 * ```
 */
export function sseEvent(event: string, data: unknown): string {
  if (!/^[A-Za-z][\w-]*$/.test(event)) {
    throw new TypeError(`Event name must be a word, got ${JSON.stringify(event)}`);
  }
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Server-sent `state` events: `open(signal)` gives the change stream (the
 * first chunk is the current picture), `snapshot(picture)` the JSON to send
 * for the latest picture. The stream ends when the reader cancels it (an
 * HTTP server does when the client disconnects) or `signal` aborts (both
 * abort the change stream), or when the change stream closes; it errors if
 * `snapshot` throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stateEvents } from "./event_stream.ts";
 *
 * const events = stateEvents(() => ReadableStream.from([1]), (v) => ({ v }));
 * const reader = events.pipeThrough(new TextDecoderStream()).getReader();
 * assert.equal((await reader.read()).value, "retry: 2000\n\n");
 * assert.equal((await reader.read()).value, 'event: state\ndata: {"v":1}\n\n');
 * await reader.cancel();
 * ```
 */
export function stateEvents<P>(
  open: (signal: AbortSignal) => ReadableStream<P>,
  snapshot: (picture: P) => unknown,
  options: StateEventsOptions = {},
): ReadableStream<Uint8Array> {
  const { refreshMs = 1_000, minIntervalMs = 100, retryMs = 2_000 } = options;
  const clock = options.clock ?? systemClock;
  for (const [name, value] of Object.entries({ refreshMs, minIntervalMs, retryMs })) {
    if (!(value >= 0) || !Number.isFinite(value)) {
      throw new RangeError(`${name} must be a non-negative number, got ${value}`);
    }
  }
  const cancelled = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, cancelled.signal])
    : cancelled.signal;
  const changes = open(signal).getReader();
  const encoder = new TextEncoder();
  let pending: Promise<ReadableStreamReadResult<P>> | undefined;
  let picture: { value: P } | undefined;
  let sentAt = -Infinity;

  /** Waits for a change, the next refresh, or the end. */
  const next = async (): Promise<"change" | "refresh" | "end"> => {
    const wait = new AbortController();
    const until = AbortSignal.any([signal, wait.signal]);
    try {
      await sleep(sentAt + minIntervalMs - clock.monotonic(), until, clock);
      pending ??= changes.read();
      const end = new Promise<never>((_, reject) => {
        if (until.aborted) reject(until.reason);
        until.addEventListener("abort", () => reject(until.reason), { once: true });
      });
      const waits: Promise<ReadableStreamReadResult<P> | "tick">[] = [pending, end];
      if (picture !== undefined) {
        const tick = sleep(sentAt + refreshMs - clock.monotonic(), until, clock);
        waits.push(tick.then(() => "tick" as const));
      }
      const result = await Promise.race(waits);
      if (result === "tick") return "refresh";
      pending = undefined;
      if (result.done) return "end";
      picture = { value: result.value };
      return "change";
    } catch {
      return "end"; // aborted
    } finally {
      wait.abort();
    }
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`retry: ${retryMs}\n\n`));
    },
    async pull(controller) {
      if ((await next()) === "end" || picture === undefined) {
        cancelled.abort();
        await changes.cancel().catch(() => {});
        return controller.close();
      }
      let data: unknown;
      try {
        data = await snapshot(picture.value);
      } catch (error) {
        cancelled.abort(error);
        await changes.cancel(error).catch(() => {});
        throw error;
      }
      sentAt = clock.monotonic();
      controller.enqueue(encoder.encode(sseEvent("state", data)));
    },
    async cancel(reason) {
      cancelled.abort(reason);
      await changes.cancel(reason).catch(() => {});
    },
  }, { highWaterMark: 0 });
}
