/**
 * The per-namespace election loop: campaign after a random delay, lead for at
 * most `leaderPeriod`, resign so leadership circulates, back off after a
 * failed attempt, and resign at once on shutdown.
 *
 * @module
 */
import { type Clock, sleep, startTimer, systemClock } from "../../core/clock.ts";
import type { Logger } from "../../core/logger.ts";
import type { Leadership, LeaderStore } from "../../store/leader_store.ts";

/** Options of {@linkcode runElectionLoop}. */
export interface ElectionLoopOptions {
  /** Namespace to lead. */
  readonly namespace: string;
  /** This instance. */
  readonly instanceId: string;
  /** Where elections run. */
  readonly leaderStore: LeaderStore;
  /** Lease of the leader's session, in ms. */
  readonly electionTtlMs: number;
  /** A leader resigns after this long. */
  readonly leaderPeriodMs: number;
  /** Most random delay before campaigning. */
  readonly maxRandomDelayMs: number;
  /** Wait after a failed attempt. */
  readonly failedElectionCooldownMs: number;
  /** Where to log. */
  readonly logger: Logger;
  /** Random numbers in [0, 1). @default {Math.random} */
  readonly random?: () => number;
  /** Whose time the delays and the leader period run on. @default {systemClock} */
  readonly clock?: Clock;
  /** The leader's work; must return once its signal aborts. */
  readonly lead: (leadership: Leadership, signal: AbortSignal) => Promise<void>;
}

/** Campaigns and leads in a loop until `signal` aborts. */
export async function runElectionLoop(
  options: ElectionLoopOptions,
  signal: AbortSignal,
): Promise<void> {
  const random = options.random ?? Math.random;
  const clock = options.clock ?? systemClock;
  const logger = options.logger.with({ namespace: options.namespace });
  while (!signal.aborted) {
    try {
      await sleep(random() * options.maxRandomDelayMs, signal, clock);
      const leadership = await options.leaderStore.campaign(
        options.namespace,
        options.instanceId,
        { ttlMs: options.electionTtlMs, signal },
      );
      logger.info("won election", { term: leadership.term });
      const period = new AbortController();
      const endPeriod = startTimer(
        clock,
        options.leaderPeriodMs,
        () => period.abort(new Error("leader period over")),
      );
      try {
        await options.lead(
          leadership,
          AbortSignal.any([leadership.signal, signal, period.signal]),
        );
      } finally {
        endPeriod();
        await leadership.resign();
        logger.info("resigned leadership", { term: leadership.term });
      }
    } catch (error) {
      if (signal.aborted) break;
      logger.warn("election attempt failed", { error });
      await sleep(options.failedElectionCooldownMs, signal, clock).catch(() => {});
    }
  }
}
