/**
 * Fake time for tests: a {@linkcode Clock} whose time and timers move only
 * when the test says so. Nothing global is replaced, so real timers (etcd,
 * gRPC) keep working beside it.
 *
 * @module
 */
import FakeTimers from "@sinonjs/fake-timers";
import type { TimerClock } from "./clock.ts";

/** A fake clock and the controls of its time. */
export interface FakeClock {
  /** What the code under test is given. */
  readonly clock: TimerClock;
  /** Moves time on by `ms`, firing due timers and letting promises settle in between. */
  tick(ms: number): Promise<void>;
  /** Lets pending promises settle without moving time. */
  settle(): Promise<void>;
  /** Timers waiting to fire. */
  pending(): number;
}

/**
 * Fake time starting at `startMs` (both the wall clock and the monotonic one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sleep } from "./clock.ts";
 * import { fakeClock } from "./fake_clock.ts";
 *
 * const time = fakeClock(1_000);
 * let woke = false;
 * const sleeping = sleep(60_000, undefined, time.clock).then(() => woke = true);
 * await time.tick(59_999);
 * assert.equal(woke, false);
 * await time.tick(1);
 * await sleeping;
 * assert.equal(time.clock.now(), 61_000);
 * ```
 */
export function fakeClock(startMs = 0): FakeClock {
  const time = FakeTimers.createClock(startMs);
  return {
    clock: {
      now: () => time.now,
      monotonic: () => time.now,
      setTimeout: (callback, ms) => time.setTimeout(callback, ms),
      clearTimeout: (handle) => time.clearTimeout(handle as number),
    },
    tick: async (ms) => {
      await time.tickAsync(ms);
    },
    settle: async () => {
      await time.tickAsync(0);
    },
    pending: () => time.countTimers(),
  };
}
