/**
 * What a leader's passes tell operators in the log: each committed change
 * with its counts and the executors that gave shards up and why, and, for a
 * replicated namespace, whether the placement meets what was asked for.
 *
 * @module
 */
import type { Logger } from "../../core/logger.ts";
import type { AssignmentDelta } from "../../core/types.ts";
import type { MoveCounts, PlacementReport } from "../../plan/mod.ts";
import type { Release } from "./describe_change.ts";

/** Executors named one by one in a change's log lines; the rest are summed up. */
const RELEASES_LOGGED = 20;

/** How long a committed pass took: planning, then the fenced write until the store acknowledged it. */
export interface PassTimes {
  readonly planMs: number;
  readonly commitMs: number;
}

/**
 * Logs committed change `seq`: counts and how long the pass took, then up to
 * 20 executors that released shards.
 */
export function logChange(
  logger: Logger,
  seq: number,
  plan: {
    delta: AssignmentDelta;
    moves: number;
    placement?: PlacementReport | undefined;
    reasons?: MoveCounts | undefined;
  },
  releases: readonly Release[],
  times?: PassTimes,
): void {
  const assigned = Object.values(plan.delta.assign).reduce((n, shards) => n + shards.length, 0);
  logger.info("assignment committed", {
    seq,
    ...(times ? { planMs: Math.round(times.planMs), commitMs: Math.round(times.commitMs) } : {}),
    assigned,
    unassigned: plan.delta.unassign.length,
    removed: plan.delta.remove.length,
    moves: plan.moves,
    ...(plan.reasons
      ? {
        placed: plan.reasons.placement,
        balanced: plan.reasons.balance,
        drainMoves: plan.reasons.drain,
        lossMoves: plan.reasons.loss,
      }
      : {}),
    ...(plan.delta.hide ? { hiddenStale: Object.keys(plan.delta.hide).length } : {}),
    ...(plan.placement ? { ...plan.placement } : {}),
  });
  for (const release of releases.slice(0, RELEASES_LOGGED)) {
    if (release.reason === "rebalance") continue;
    logger.info("executor released shards", { ...release });
  }
  if (releases.length > RELEASES_LOGGED) {
    logger.info("more executors released shards", { executors: releases.length - RELEASES_LOGGED });
  }
}

/**
 * Logs what a replicated namespace's placement achieved whenever it changes:
 * a warning while shards are short of owners, badly spread or over the
 * overlap bound, one info line when that ends.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PlacementLog } from "./pass_log.ts";
 *
 * const lines: string[] = [];
 * const logger = { warn: (m: string) => lines.push(m), info: (m: string) => lines.push(m) };
 * const log = new PlacementLog(logger);
 * log.report({ replicas: 3, shortShards: 2, zoneSpreadViolations: 0 });
 * log.report({ replicas: 3, shortShards: 2, zoneSpreadViolations: 0 }); // unchanged: silent
 * log.report({ replicas: 3, shortShards: 0, zoneSpreadViolations: 0 });
 * assert.equal(lines.length, 2);
 * ```
 */
export class PlacementLog {
  #logger: Pick<Logger, "warn" | "info">;
  #last = "";
  #lastHadProblem = false;

  /** Logs to `logger`. */
  constructor(logger: Pick<Logger, "warn" | "info">) {
    this.#logger = logger;
  }

  /** Notes a pass's placement; logs only when it differs from the last one. */
  report(report: PlacementReport): void {
    const key = JSON.stringify(report);
    if (key === this.#last) return;
    const hadProblem = this.#lastHadProblem;
    this.#last = key;
    this.#lastHadProblem = problem(report);
    if (this.#lastHadProblem) {
      this.#logger.warn("owner sets fall short of the placement asked for", { ...report });
    } else if (hadProblem) {
      this.#logger.info("owner sets meet the placement asked for", { ...report });
    }
  }
}

function problem(report: PlacementReport): boolean {
  return report.shortShards > 0 || report.zoneSpreadViolations > 0 ||
    (report.shardsOverBound ?? 0) > 0;
}
