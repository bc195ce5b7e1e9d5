/**
 * The leader's poison-shard step, run at the start of each pass (before the
 * plan moves the shards of a lost executor away): feed the namespace's
 * picture to the term's {@linkcode PoisonDetector}, drain what it finds with
 * the reason `quarantined` (fenced by the term's claim, like every leader
 * write: a deposed leader quarantines nothing), and say so in the history.
 * Counts start afresh with each term.
 *
 * @module
 */
import { failedStartsOf } from "../../core/failed_starts.ts";
import type { Logger } from "../../core/logger.ts";
import type { PoisonDetector, PoisonExecutor } from "../../plan/mod.ts";
import type { NamespaceCache } from "../../state/namespace_cache.ts";
import type { NamespaceView } from "../../state/namespace_view.ts";
import type { Fence, Store } from "../../store/store.ts";
import type { HistoryNote } from "./history_notes.ts";

/** The drain reason of a quarantined shard. */
export const QUARANTINED = "quarantined";

/** What the term keeps for the step. */
export interface QuarantineCarry {
  /** The term's detector. */
  readonly detector: PoisonDetector;
  /** The fleet-wide failure in progress, if any: noted once, when it begins. */
  lastMassLoss?: string | undefined;
}

/** What the step needs of its pass. */
export interface QuarantineStepContext {
  readonly cache: NamespaceCache;
  readonly store: Store;
  /** The term's proof of leadership: the drain is written only while it holds. */
  readonly fence: Fence;
  readonly logger: Logger;
  readonly note?: (note: HistoryNote) => void;
  /** Wall-clock now (ms since epoch). */
  readonly nowMs: number;
}

/**
 * The picture's executors as the detector reads them: alive at monotonic
 * `now`, and the shards each reports failed starts of.
 */
export function poisonExecutors(state: NamespaceView, now: number): PoisonExecutor[] {
  const out: PoisonExecutor[] = [];
  for (const e of state.executors()) {
    const failedStarts = failedStartsOf(e.reports).keys();
    const reports = e.reports;
    out.push({
      executorId: e.executorId,
      alive: state.isAlive(e, now),
      lastHeartbeatMs: e.lastHeartbeatMs,
      failedStarts,
      ...(e.incarnation === undefined ? {} : { incarnation: e.incarnation }),
      // Over this heartbeat's reports: a restart's next life reads what this one ran.
      running: (shardKey) => {
        const status = reports.get(shardKey)?.status;
        return status === "READY" || status === "DONE";
      },
      owned: () =>
        [...state.shardsOf(e.executorId)].map((s) => {
          const status = e.reports.get(s)?.status;
          return [s, state.assignedAtMs(s), status === "READY" || status === "DONE"] as const;
        }),
    });
  }
  return out;
}

/**
 * Runs the detector on the picture at monotonic `now`; drains the shards it
 * finds (waiting until the picture shows it, so the pass plans without them)
 * and returns how many it quarantined. Rejects with `FencedError` when the
 * term's claim no longer holds the namespace.
 */
export async function quarantineStep(
  carry: QuarantineCarry,
  context: QuarantineStepContext,
  now: number,
  signal: AbortSignal,
): Promise<number> {
  const { cache, store, fence, logger, note } = context;
  const state = cache.state;
  const verdict = carry.detector.observe({
    nowMs: context.nowMs,
    shardCount: Math.max(1, state.ownedCount + state.drainedCount),
    executors: poisonExecutors(state, now),
    excluded: (shardKey) => state.isDrained(shardKey),
  });
  if (verdict.massLoss !== undefined && carry.lastMassLoss === undefined) {
    logger.warn("poison-shard detector: fleet-wide failure, nothing quarantined", {
      reason: verdict.massLoss,
    });
    note?.({ type: "quarantine_withheld", reason: "mass_loss", text: verdict.massLoss });
  }
  carry.lastMassLoss = verdict.massLoss;
  if (verdict.quarantine.length === 0) return 0;
  const keys = verdict.quarantine.map((q) => q.shardKey);
  // Fenced: throws FencedError (the term ends) when another leader holds the namespace.
  const revision = await store.drainFenced(fence, keys, QUARANTINED);
  carry.detector.forget(keys);
  for (const { shardKey, executors } of verdict.quarantine) {
    logger.warn("poison shard quarantined", { shardKey, executors });
    note?.({
      type: "shards_quarantined",
      shardKeys: [shardKey],
      reason: QUARANTINED,
      text: `shard ${shardKey} quarantined: ${executors.length} executors failed with it ` +
        `(${executors.join(", ")}); release it with smctl shard undrain`,
    });
  }
  await cache.waitForRevision(revision, signal);
  return keys.length;
}
