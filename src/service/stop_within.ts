/**
 * One bounded step of stopping an instance: wait for named tasks at most
 * {@linkcode STOP_WAIT_MS}, log by name what is still running (so that a
 * stuck stop is seen and can be fixed, not waited on forever), and rethrow
 * the first failure.
 *
 * @module
 */
import type { Clock } from "../core/clock.ts";
import type { Logger } from "../core/logger.ts";
import { settleWithin } from "../core/settle_within.ts";

/**
 * How long one step of stopping waits for its tasks, ms. Orchestrators allow
 * 30 s between SIGTERM and SIGKILL by default; a stop has at most three
 * steps (leaderships, heartbeat writes, listeners).
 */
export const STOP_WAIT_MS = 8_000;

/**
 * Waits for `tasks` (`undefined` ones are done) at most {@linkcode STOP_WAIT_MS};
 * logs an error naming those still running; throws the first failure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemClock } from "../core/clock.ts";
 * import { silentLogger } from "../core/logger.ts";
 * import { stopWithin } from "./stop_within.ts";
 *
 * const pending = await stopWithin("demo", silentLogger, systemClock, { done: Promise.resolve() });
 * assert.deepEqual(pending, []);
 * ```
 */
export async function stopWithin(
  step: string,
  logger: Logger,
  clock: Clock,
  tasks: Readonly<Record<string, Promise<unknown> | undefined>>,
  waitMs: number = STOP_WAIT_MS,
): Promise<string[]> {
  const { pending, failed } = await settleWithin(tasks, waitMs, clock);
  if (pending.length > 0) {
    logger.error(
      `stopping: ${step} still running after ${waitMs / 1_000} s; going on without them`,
      {
        pending,
      },
    );
  }
  if (failed.length > 0) throw failed[0]!.error;
  return pending;
}
