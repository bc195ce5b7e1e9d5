/**
 * Turns of the event loop for timers and I/O. Promise chains (Web Streams
 * pipes among them) run as microtasks, and while one runs no timer fires and
 * no socket is read: after 1,000,000 shards were placed, applying the change,
 * planning the next pass and encoding the answers ran back to back for 2.9 s,
 * no lease keep-alive was sent, and the leader stepped down. Long stages
 * therefore give the loop a turn between them.
 *
 * @module
 */

/**
 * Resolves on a later turn of the event loop, after the timers and I/O
 * callbacks already due (a `setTimeout` of 0: the real one, also under a
 * fake clock, since it is the real thread that must be let go).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nextTurn } from "./event_loop_turn.ts";
 *
 * let fired = false;
 * setTimeout(() => fired = true, 0);
 * await nextTurn();
 * assert.equal(fired, true);
 * ```
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Gives the event loop a turn once at least `sliceMs` of the thread's time
 * passed since the last one: for loops that may run long (applying a large
 * change) without paying a turn per step.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TurnTaker } from "./event_loop_turn.ts";
 *
 * const turns = new TurnTaker(50);
 * assert.equal(turns.due(), false);
 * await turns.takeIfDue(); // nothing to wait for yet
 * ```
 */
export class TurnTaker {
  readonly #sliceMs: number;
  #since = performance.now();

  /** `sliceMs`: the longest run between turns. */
  constructor(sliceMs: number) {
    if (!(sliceMs >= 0)) throw new RangeError(`sliceMs must be at least 0, got ${sliceMs}`);
    this.#sliceMs = sliceMs;
  }

  /** Whether a turn is due. */
  due(): boolean {
    return performance.now() - this.#since >= this.#sliceMs;
  }

  /** Takes a turn when one is due. */
  async takeIfDue(): Promise<void> {
    if (!this.due()) return;
    await nextTurn();
    this.#since = performance.now();
  }
}
