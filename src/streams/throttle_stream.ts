/**
 * Coalescing bursts of triggers.
 *
 * @module
 */
import { type Clock, startTimer, systemClock } from "../core/clock.ts";

/** Options of {@linkcode ThrottleStream}. */
export interface ThrottleOptions {
  /**
   * Least time between two outputs, in ms; a function is asked each time a
   * chunk arrives (a cooldown that adapts to what the reader does).
   */
  readonly cooldownMs: number | (() => number);
  /** Whose time the cooldowns run on (its monotonic time and timers). @default {systemClock} */
  readonly clock?: Clock;
  /** Monotonic time source, when it is not the clock's. @default {clock.monotonic} */
  readonly now?: () => number;
}

/**
 * Passes the first chunk of a burst at once, then at most one chunk per
 * cooldown (the latest, at the end of the cooldown). When the reader is busy,
 * at most one chunk waits: further ones are folded into it. A burst of events
 * therefore costs one pass, and a slow pass never builds a backlog.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ThrottleStream } from "./throttle_stream.ts";
 * const out = ReadableStream.from([1, 2, 3]).pipeThrough(new ThrottleStream({ cooldownMs: 10 }));
 * assert.ok((await Array.fromAsync(out)).length <= 2);
 * ```
 */
export class ThrottleStream<T> extends TransformStream<T, T> {
  /** Builds the stage with a cooldown. */
  constructor(options: ThrottleOptions) {
    const cooldownOf = typeof options.cooldownMs === "function"
      ? options.cooldownMs
      : () => options.cooldownMs as number;
    const fixed = cooldownOf();
    if (!(fixed >= 0)) throw new RangeError(`Cooldown must be >= 0, got ${fixed}`);
    const cooldown = () => Math.max(0, cooldownOf()) || 0;
    const clock = options.clock ?? systemClock;
    const now = options.now ?? (() => clock.monotonic());
    let last = -Infinity;
    let pending: { value: T } | undefined;
    let timer: (() => void) | undefined;
    // The readable has room for two chunks but holds at most one, so it never
    // pushes back: chunks keep reaching `transform` and fold into the waiting
    // one instead of queueing behind it.
    const room = 2;
    const emit = (controller: TransformStreamDefaultController<T>, value: T) => {
      last = now();
      // A chunk already waits for the reader: this one is folded into it.
      if (controller.desiredSize === room) controller.enqueue(value);
    };
    super(
      {
        transform(chunk, controller) {
          const wait = last + cooldown() - now();
          if (wait <= 0 && timer === undefined) return emit(controller, chunk);
          pending = { value: chunk };
          timer ??= startTimer(clock, wait, () => {
            timer = undefined;
            if (pending) emit(controller, pending.value);
            pending = undefined;
          });
        },
        flush() {
          timer?.();
        },
        cancel() {
          timer?.();
        },
      },
      undefined,
      { highWaterMark: room },
    );
  }
}
