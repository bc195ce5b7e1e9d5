/**
 * Rate-limited logging of an outage: consecutive failures of a repeated
 * call (heartbeats, the watch stream) make one warning when they begin and
 * one info line when a call succeeds again, not a line per failure.
 *
 * @module
 */
import { failureCode, failureText, isPermanent } from "./failure_code.ts";
import type { Logger } from "./logger.ts";

/** What an {@linkcode OutageLog} needs. */
export interface OutageLogOptions {
  /** Where lines go. */
  readonly logger: Logger;
  /** Time, for the outage's duration (ms; any origin). */
  readonly clock: { now(): number };
  /** Starts every line, e.g. `Executor host-1 (namespace "orders"): heartbeats`. */
  readonly subject: string;
  /** Context of every line, e.g. `{ namespace, executorId }`. */
  readonly context: Readonly<Record<string, unknown>>;
}

/**
 * Logs an outage's start and end. A failure that starts an outage logs a
 * warning (an error when it is permanent: retrying does not fix it); later
 * failures of the same outage log nothing, except once per new permanent
 * code; the first success after failures logs one info line with the
 * outage's duration and failed attempts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OutageLog } from "./outage_log.ts";
 *
 * const lines: string[] = [];
 * const record = (level: string) => (message: string) => lines.push(`${level}: ${message}`);
 * const logger = { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
 * let now = 0;
 * const log = new OutageLog({ logger, clock: { now: () => now }, subject: "Heartbeats", context: {} });
 * for (let i = 0; i < 5; i++, now += 500) log.failed({ code: 14, message: "14 UNAVAILABLE: down" }, "sm:7943");
 * log.succeeded("sm:7943");
 * assert.deepEqual(lines, [
 *   "warn: Heartbeats failing at sm:7943 with UNAVAILABLE: 14 UNAVAILABLE: down. Retrying; one more line when they succeed",
 *   "info: Heartbeats succeed again at sm:7943 after 2.5 s and 5 failed attempts",
 * ]);
 * ```
 */
export class OutageLog {
  readonly #o: OutageLogOptions;
  #startedAt: number | undefined;
  #attempts = 0;
  #permanentLogged = new Set<string>();

  /** An outage log with no outage. */
  constructor(options: OutageLogOptions) {
    this.#o = options;
  }

  /** Whether failures have happened since the last success. */
  get failing(): boolean {
    return this.#startedAt !== undefined;
  }

  /** Failed attempts in the current outage (0 outside one). */
  get attempts(): number {
    return this.#attempts;
  }

  /** Records a failed attempt, to `address` when known. */
  failed(error: unknown, address?: string): void {
    const { logger, clock, subject } = this.#o;
    const code = failureCode(error);
    const permanent = isPermanent(error);
    this.#attempts++;
    const first = this.#startedAt === undefined;
    if (first) this.#startedAt = clock.now();
    if (!first && !(permanent && !this.#permanentLogged.has(code))) return;
    const at = address === undefined ? "" : ` at ${address}`;
    const context = { ...this.#o.context, code, address, attempt: this.#attempts, error };
    const text = failureText(error);
    if (permanent) {
      this.#permanentLogged.add(code);
      logger.error(
        `${subject} failing${at} with ${code}: ${text}. Retrying will not fix this; ` +
          `check the namespace, the address and the token`,
        context,
      );
    } else {
      logger.warn(
        `${subject} failing${at} with ${code}: ${text}. Retrying; one more line when they succeed`,
        context,
      );
    }
  }

  /** Records a success: ends the outage (with one info line) if there was one. */
  succeeded(address?: string): void {
    const startedAt = this.#startedAt;
    if (startedAt === undefined) return;
    const durationMs = Math.max(0, this.#o.clock.now() - startedAt);
    const attempts = this.#attempts;
    this.#startedAt = undefined;
    this.#attempts = 0;
    this.#permanentLogged = new Set();
    const at = address === undefined ? "" : ` at ${address}`;
    this.#o.logger.info(
      `${this.#o.subject} succeed again${at} after ${(durationMs / 1000).toFixed(1)} s and ` +
        `${attempts} failed attempt${attempts === 1 ? "" : "s"}`,
      { ...this.#o.context, address, durationMs, attempts },
    );
  }
}
