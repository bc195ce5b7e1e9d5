/**
 * Waiting for the store at start-up. An instance started while etcd has no
 * quorum (a whole-cluster restart, a node replaced during an etcd outage)
 * used to exit at once with "Cannot start: etcd transaction failed", and a
 * supervisor had to start it again; the soak saw it after quorum losses. It
 * now tries again, saying so in the log, for `SM_STORE_START_WAIT` (a
 * duration, `1m` by default; `0s` exits at once as before). Any other
 * failure (a store format newer than this release reads, refused
 * credentials) still stops the start at once.
 *
 * @module
 */
import { type Clock, sleep, systemClock } from "./core/clock.ts";
import { StoreUnavailableError } from "./core/errors.ts";
import type { Logger } from "./core/logger.ts";
import { parseDuration } from "./shared/duration.ts";

/** How long an instance waits for its store at start by default, ms. */
export const STORE_START_WAIT_MS = 60_000;

/** First pause between tries, ms; it doubles up to {@linkcode STORE_START_RETRY_MAX_MS}. */
export const STORE_START_RETRY_MS = 500;

/** Longest pause between tries, ms. */
export const STORE_START_RETRY_MAX_MS = 5_000;

/**
 * `SM_STORE_START_WAIT` as ms: unset is {@linkcode STORE_START_WAIT_MS}, `0s`
 * (or `0`) no wait, else a duration such as `90s` or `5m`.
 *
 * @throws {RangeError} naming the variable, for anything else
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storeStartWaitFromEnv } from "./store_start_wait.ts";
 *
 * assert.equal(storeStartWaitFromEnv(undefined), 60_000);
 * assert.equal(storeStartWaitFromEnv("0"), 0);
 * assert.equal(storeStartWaitFromEnv("2m"), 120_000);
 * assert.throws(() => storeStartWaitFromEnv("soon"), /SM_STORE_START_WAIT/);
 * ```
 */
export function storeStartWaitFromEnv(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return STORE_START_WAIT_MS;
  const text = value.trim();
  if (text === "0") return 0;
  try {
    return parseDuration(text);
  } catch (error) {
    throw new RangeError(
      `SM_STORE_START_WAIT ${JSON.stringify(value)}: give a duration such as 90s or 5m, or 0s ` +
        `not to wait (${(error as Error).message})`,
    );
  }
}

/** Options of {@linkcode whenStoreAnswers}. */
export interface StoreStartWaitOptions {
  /** Give up after this long, ms. @default {STORE_START_WAIT_MS} */
  readonly waitMs?: number;
  /** Time source. @default {systemClock} */
  readonly clock?: Clock;
}

/**
 * Runs `open` until it succeeds, tries again while it fails only because
 * the store is unavailable (a log line each time), and passes on any other
 * failure, or the last one once `waitMs` has passed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StoreUnavailableError } from "./core/errors.ts";
 * import { silentLogger } from "./core/logger.ts";
 * import { whenStoreAnswers } from "./store_start_wait.ts";
 *
 * let tries = 0;
 * const open = () => {
 *   if (++tries < 3) throw new StoreUnavailableError("etcd transaction failed: no leader");
 *   return Promise.resolve("format 2");
 * };
 * let now = 0; // a clock whose timers fire at once
 * const clock = {
 *   now: () => now,
 *   monotonic: () => now,
 *   setTimeout: (fire: () => void, ms: number) => queueMicrotask(() => (now += ms, fire())),
 *   clearTimeout: () => {},
 * };
 * assert.equal(await whenStoreAnswers(open, silentLogger, { clock }), "format 2");
 * assert.equal(tries, 3);
 * ```
 */
export async function whenStoreAnswers<T>(
  open: () => Promise<T>,
  logger: Logger,
  options: StoreStartWaitOptions = {},
): Promise<T> {
  const clock = options.clock ?? systemClock;
  const waitMs = options.waitMs ?? STORE_START_WAIT_MS;
  const start = clock.monotonic();
  let pauseMs = STORE_START_RETRY_MS;
  for (let attempt = 1;; attempt++) {
    try {
      return await open();
    } catch (error) {
      const waited = clock.monotonic() - start;
      if (!(error instanceof StoreUnavailableError) || waited + pauseMs > waitMs) throw error;
      logger.warn("the store does not answer yet; trying again", {
        attempt,
        waitedMs: Math.round(waited),
        nextInMs: pauseMs,
        giveUpAfterMs: waitMs,
        error: error.message,
      });
      await sleep(pauseMs, undefined, clock);
      pauseMs = Math.min(pauseMs * 2, STORE_START_RETRY_MAX_MS);
    }
  }
}
