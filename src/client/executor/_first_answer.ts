/**
 * What `Executor.start()` waits for: the first answered heartbeat, bounded by
 * the caller's `timeoutMs` and `signal`, and cut short by a permanent failure.
 *
 * @module
 */
import type { StartOptions } from "../common/connection_options.ts";
import { deferred } from "../common/deferred.ts";
import { InvalidOptionsError, ShardManagerError } from "../common/errors.ts";
import type { Clock } from "./clock.ts";

/**
 * The first answer of one executor.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemClock } from "./clock.ts";
 * import { FirstAnswer } from "./_first_answer.ts";
 *
 * const first = new FirstAnswer(systemClock, "executor e1 in namespace \"ns\"");
 * const waiting = first.wait({ timeoutMs: 1_000 });
 * first.answered();
 * await waiting;
 * assert.equal(first.isAnswered, true);
 * ```
 */
export class FirstAnswer {
  readonly #clock: Clock;
  readonly #what: string;
  readonly #settled = deferred<void>();
  #answered = false;
  /** The last failure seen, the `cause` of a timeout. */
  lastError: ShardManagerError | undefined;

  /** `what` names the executor in messages. */
  constructor(clock: Clock, what: string) {
    this.#clock = clock;
    this.#what = what;
    this.#settled.promise.catch(() => {}); // a start() nobody awaits is not an unhandled error
  }

  /** Whether a heartbeat has been answered. */
  get isAnswered(): boolean {
    return this.#answered;
  }

  /** A heartbeat was answered: every wait resolves. */
  answered(): void {
    this.#answered = true;
    this.#settled.resolve();
  }

  /** Every wait rejects with `error` (no effect once answered or failed). */
  fail(error: ShardManagerError): void {
    if (!this.#answered) this.#settled.reject(error);
  }

  /** Every wait rejects with code `CLOSED`, saying `why`. */
  close(why: string): void {
    this.fail(
      new ShardManagerError(`${this.#what} got no heartbeat answered: ${why}`, { code: "CLOSED" }),
    );
  }

  /**
   * Resolves once answered; rejects with the failure, with code `TIMEOUT`
   * after `timeoutMs`, or with the signal's reason.
   */
  async wait({ signal, timeoutMs }: StartOptions): Promise<void> {
    if (this.#answered) return;
    if (timeoutMs !== undefined && !(timeoutMs > 0 && Number.isFinite(timeoutMs))) {
      throw new InvalidOptionsError(
        "timeoutMs",
        `timeoutMs must be a positive number of ms, got ${timeoutMs}`,
      );
    }
    let timer: unknown;
    const bounds = new AbortController();
    const given = new Promise<never>((_, reject) => {
      if (timeoutMs !== undefined) {
        timer = this.#clock.setTimeout(() => {
          const last = this.lastError ? ` (last error: ${this.lastError.message})` : "";
          reject(
            new ShardManagerError(
              `${this.#what} got no heartbeat answered within ${timeoutMs} ms${last}`,
              { code: "TIMEOUT", cause: this.lastError },
            ),
          );
        }, timeoutMs);
      }
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener("abort", () => reject(signal.reason), {
        once: true,
        signal: bounds.signal,
      });
    });
    try {
      await Promise.race([this.#settled.promise, given]);
    } finally {
      this.#clock.clearTimeout(timer);
      bounds.abort();
    }
  }
}
